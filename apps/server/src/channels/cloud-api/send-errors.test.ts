import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPH_ERRORS } from "../../../test/fake-graph/errors.js";
import { FakeGraph, fakePhone } from "../../../test/fake-graph/setup.js";
import { retryDelayMs, SEND_RETRY } from "../../domains/messages/send-retry.js";
import { RetryLaterError } from "../send-errors.js";
import { GraphClient, GraphError, GraphUnavailable } from "./graph-client.js";
import { isRetryable, mapGraphError } from "./send-errors.js";

let fake: FakeGraph;
const phone = fakePhone({ digits: "5511922260001" });
beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.phones = [phone];
});
afterAll(async () => {
  await fake.close();
});

const refusal = async (error: (typeof GRAPH_ERRORS)[keyof typeof GRAPH_ERRORS]): Promise<GraphError> => {
  fake.failNext("5511966660001", 1, error);
  const client = new GraphClient(fake.url, fake.accessToken);
  const err = await client.sendMessage(phone.id, { to: "5511966660001", type: "text", text: { body: "Oi" } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(GraphError);
  return err as GraphError;
};

describe("Graph errors", () => {
  it("keep Meta's error object: HTTP status, code, subcode, type, is_transient, details, fbtrace_id", async () => {
    const err = await refusal(GRAPH_ERRORS.rateLimit);
    expect({ status: err.status, code: err.code, subcode: err.subcode, type: err.type, isTransient: err.isTransient, details: err.details, message: err.message }).toEqual({
      status: 400,
      code: 130429,
      subcode: 2494055,
      type: "OAuthException",
      isTransient: false,
      details: "Cloud API message throughput has been reached.",
      message: "(#130429) Rate limit hit",
    });
    expect(err.fbtraceId).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect((await refusal(GRAPH_ERRORS.transient)).isTransient).toBe(true);
  });

  it("retry later: the documented temporary codes, HTTP 5xx, is_transient and no answer; everything else fails", async () => {
    for (const e of [GRAPH_ERRORS.rateLimit, GRAPH_ERRORS.pairRateLimit, GRAPH_ERRORS.somethingWentWrong, GRAPH_ERRORS.serviceUnavailable, GRAPH_ERRORS.serverUnavailable, GRAPH_ERRORS.http500, GRAPH_ERRORS.transient]) {
      expect(isRetryable(await refusal(e)), String(e.body.error.code)).toBe(true);
    }
    expect(isRetryable(new GraphUnavailable("The operation was aborted due to timeout"))).toBe(true);
    for (const e of [GRAPH_ERRORS.undeliverable, GRAPH_ERRORS.spamRateLimit]) expect(isRetryable(await refusal(e))).toBe(false);
    expect(isRetryable(new GraphError(400, 100, "(#100) Invalid parameter"))).toBe(false);
    expect(isRetryable(new GraphError(400, 132001, "(#132001) Template name does not exist in the translation"))).toBe(false);

    const pair = mapGraphError(await refusal(GRAPH_ERRORS.pairRateLimit));
    expect(pair).toBeInstanceOf(RetryLaterError);
    expect((pair as RetryLaterError).pace).toBe("pair");
    const gone = mapGraphError(await refusal(GRAPH_ERRORS.undeliverable));
    expect(gone).not.toBeInstanceOf(RetryLaterError);
    expect(gone.message).toBe("Não foi possível enviar a mensagem: (#131026) Message Undeliverable — Message failed to send because the recipient is unable to receive it.");
  });
});

describe("retry delays", () => {
  it("full jitter up to 2 s, 4 s, 8 s ... capped at 60 s; the pair rate limit waits 3 base delays more", () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, "normal", 2000, top))).toEqual([1999, 3999, 7999, 15999, 31999]);
    expect(retryDelayMs(12, "normal", 2000, top)).toBe(59999);
    expect(retryDelayMs(3, "normal", 2000, () => 0)).toBe(0);
    expect(retryDelayMs(1, "pair", 2000, () => 0)).toBe(6000);
    expect(retryDelayMs(2, "pair", 2000, () => 0.5)).toBe(8000);
    expect(SEND_RETRY.maxAttempts).toBe(6);
  });
});
