import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// A stand-in for socket.io-client's socket: records emits, lets the test fire events.
const fake = vi.hoisted(() => {
  const handlers = new Map<string, ((...a: unknown[]) => void)[]>();
  return {
    handlers,
    connected: false,
    active: false,
    emitted: [] as unknown[][],
    connects: 0,
    on(event: string, fn: (...a: unknown[]) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), fn]);
      return this;
    },
    emit(...args: unknown[]) {
      this.emitted.push(args);
      return this;
    },
    connect() {
      this.connects++;
      return this;
    },
    disconnect() {
      return this;
    },
    fire(event: string, ...args: unknown[]) {
      for (const fn of handlers.get(event) ?? []) fn(...args);
    },
  };
});
vi.mock("socket.io-client", () => ({ io: () => fake }));

import { onUnauthorized, refreshSession } from "./api";
import { disconnectSocket, getSocket, tokenExpiry } from "./socket";

const store = new Map<string, string>();
const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, "")}.s`;
const answer = (ok: boolean, token = "") =>
  vi.fn(async () => new Response(ok ? JSON.stringify({ token }) : "{}", { status: ok ? 200 : 401 }));

beforeEach(() => {
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  fake.emitted.length = 0;
  fake.handlers.clear();
  fake.connects = 0;
});
afterEach(() => {
  disconnectSocket();
  vi.unstubAllGlobals();
});

describe("the app's socket and the session", () => {
  it("reads a token's expiry", () => {
    expect(tokenExpiry(jwt(1_900_000_000))).toBe(1_900_000_000);
    expect(tokenExpiry("not-a-token")).toBeNull();
  });

  it("hands each refreshed access token to the server", async () => {
    getSocket();
    fake.connected = true;
    vi.stubGlobal("fetch", answer(true, "fresh-token"));
    expect(await refreshSession()).toBe(true);
    expect(fake.emitted).toContainEqual(["authToken", "fresh-token"]);
  });

  it("after a server-side close, reconnects when a refresh works and ends the session when it does not", async () => {
    getSocket();
    vi.stubGlobal("fetch", answer(true, "fresh-token"));
    fake.fire("disconnect", "io server disconnect");
    await vi.waitFor(() => expect(fake.connects).toBe(1));

    const ended = vi.fn();
    const stop = onUnauthorized(ended);
    vi.stubGlobal("fetch", answer(false));
    fake.fire("disconnect", "io server disconnect");
    await vi.waitFor(() => expect(ended).toHaveBeenCalledTimes(1));
    stop();
  });
});
