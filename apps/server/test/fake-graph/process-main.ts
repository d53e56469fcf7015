import { FakeGraph } from "./server.js";

/** The child side of startFakeGraphProcess (process.ts): one FakeGraph, commands over IPC. */
const fake = await FakeGraph.start();
const commands: Record<string, (arg: never) => unknown> = {
  info: () => ({ url: fake.url, host: fake.host, accessToken: fake.accessToken, appSecret: fake.appSecret, wabaId: fake.wabaId }),
  phones: (phones: FakeGraph["phones"]) => void (fake.phones = phones),
  templates: (templates: FakeGraph["templates"]) => void (fake.templates = templates),
  statusPlan: (plan: FakeGraph["statusPlan"]) => void (fake.statusPlan = plan),
  sends: () =>
    fake.sent
      .filter((s) => s.body.type === "template")
      .map((s) => ({
        at: s.at,
        to: String(s.body.to),
        phoneNumberId: s.phoneNumberId,
        callbackData: typeof s.body.biz_opaque_callback_data === "string" ? s.body.biz_opaque_callback_data : null,
      })),
  statusesSettled: async () => {
    await fake.statusesSettled(120_000);
    return { deliveries: fake.statusDeliveries, refusals: fake.statusRefusals.length };
  },
};
process.on("message", (m: { id: number; cmd: string; arg: never }) => {
  void Promise.resolve(commands[m.cmd]?.(m.arg)).then((result) => process.send?.({ id: m.id, result: result ?? null }));
});
process.on("SIGTERM", () => {
  void fake.close().then(() => process.exit(0));
});
process.on("disconnect", () => {
  void fake.close().then(() => process.exit(0));
});
