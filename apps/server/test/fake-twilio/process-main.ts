import { FakeTwilio, type FakeTwilioOptions } from "./server.js";

/** The fake Twilio in a process of its own (driven over IPC by ./process.ts): its clock never shares an event loop with the sender. */
let fake: FakeTwilio | null = null;

process.on("message", (m: { id: number; cmd: string; arg?: unknown }) => {
  void (async () => {
    let result: unknown = null;
    if (m.cmd === "start") {
      fake = new FakeTwilio(m.arg as FakeTwilioOptions);
      result = { url: await fake.start() };
    } else if (m.cmd === "arrivals") result = fake!.messages.map((x) => [x.at, x.to]);
    else if (m.cmd === "count") result = fake!.messages.length;
    else if (m.cmd === "settled") {
      await fake!.settled();
      result = { failures: fake!.callbackFailures.length };
    } else if (m.cmd === "stop") {
      await fake?.stop();
      result = true;
    }
    process.send!({ id: m.id, result });
  })();
});
