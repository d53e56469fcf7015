import type { TestApp } from "../../test/helper.js";

/** Test helpers shared by the messaging domains' API tests. */

export async function setSetting(app: TestApp, companyId: number, key: string, value: string): Promise<void> {
  await app.sql.exec(
    "INSERT INTO settings (company_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (company_id, key) DO UPDATE SET value = EXCLUDED.value",
    [companyId, key, value],
  );
}

/** A sandbox connection created by the admin through the API and connected with the phone's scan. */
export async function connectedSandbox(
  app: TestApp,
  adminToken: string,
  o: { name?: string; queueIds?: number[]; greetingMessage?: string; complationMessage?: string; fields?: Record<string, unknown> } = {},
): Promise<number> {
  const res = await app.api("POST", "/api/whatsapp", {
    token: adminToken,
    body: {
      name: o.name ?? "Sandbox",
      provider: "sandbox",
      queueIds: o.queueIds ?? [],
      greetingMessage: o.greetingMessage ?? "",
      complationMessage: o.complationMessage ?? "",
      ...o.fields,
    },
  });
  if (res.statusCode !== 200) throw new Error(`create whatsapp failed: ${res.body}`);
  const id = res.json().id as number;
  const scan = await app.api("POST", `/api/sandbox/${id}/scan`, { token: adminToken });
  if (scan.statusCode !== 200) throw new Error(`scan failed: ${scan.body}`);
  return id;
}

export async function inbound(
  app: TestApp,
  token: string,
  whatsappId: number,
  body: { number: string; name?: string; body?: string; mediaType?: string; mediaBase64?: string; mimetype?: string; mediaName?: string; quotedId?: string | number },
): Promise<{ ticketId: number; messageId: number; contactId: number }> {
  const res = await app.api("POST", `/api/sandbox/${whatsappId}/inbound`, { token, body: { name: "Cliente", body: "Olá", ...body } });
  if (res.statusCode !== 200) throw new Error(`inbound failed: ${res.body}`);
  return res.json();
}

/** What the sandbox "phone" received from the connection (the agents' and automatic messages), oldest first. */
export async function phoneOutbox(app: TestApp, token: string, whatsappId: number, number: string): Promise<string[]> {
  const res = await app.api("GET", `/api/sandbox/${whatsappId}/outbox?number=${number}&outboundOnly=true`, { token });
  if (res.statusCode !== 200) throw new Error(`outbox failed: ${res.body}`);
  return (res.json().records as { body: string }[]).map((r) => r.body);
}
