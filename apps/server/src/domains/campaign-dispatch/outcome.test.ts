import { describe, expect, it } from "vitest";
import { GraphError, GraphUnavailable } from "../../channels/cloud-api/graph-client.js";
import { isExpiryError, outcomeOf } from "./outcome.js";

const graph = (status: number, code: number, o: { transient?: boolean } = {}) =>
  new GraphError(status, code, `(#${code}) Meta says no`, "details", { isTransient: o.transient ?? false });

describe("what a send's answer means for its row", () => {
  it("retries Meta's refusals for now, the network, 5xx and is_transient", () => {
    expect(outcomeOf(graph(400, 130429)).kind).toBe("retry");
    expect(outcomeOf(graph(400, 131056))).toMatchObject({ kind: "retry", pair: true });
    expect(outcomeOf(graph(500, 131000)).kind).toBe("retry");
    expect(outcomeOf(graph(503, 1)).kind).toBe("retry");
    expect(outcomeOf(graph(400, 2, { transient: true })).kind).toBe("retry");
    expect(outcomeOf(new GraphUnavailable("fetch failed: connect ECONNREFUSED 127.0.0.1:1")).kind).toBe("retry");
  });

  it("a timeout may have reached Meta: unknown, left to reconciliation (never re-sent)", () => {
    expect(outcomeOf(new GraphUnavailable("The operation was aborted due to timeout")).kind).toBe("unknown");
  });

  it("pauses the campaign on account blocks and fails the row on anything else", () => {
    for (const code of [368, 131031, 131042, 190]) expect(outcomeOf(graph(400, code)).kind).toBe("violation");
    for (const code of [131026, 131047, 131051, 132000, 132001, 132012, 100, 131008, 131009, 131048]) {
      expect(outcomeOf(graph(400, code))).toMatchObject({ kind: "failed", code, message: `(#${code}) Meta says no — details` });
    }
  });

  it("a failure naming the time-to-live is an expiry", () => {
    expect(isExpiryError({ code: 131026, title: "Message undeliverable" })).toBe(false);
    expect(isExpiryError({ code: null, title: "Message failed", details: "The message's time-to-live expired before delivery" })).toBe(true);
  });
});
