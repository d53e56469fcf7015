import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { patchLive } from "../patch-live";

type Row = { id: number; status: string; sent: number };
const key = ["campaigns", "list", 1];
const setStatus = (id: number, patch: Partial<Row>) => (old: Row[] | undefined) => old?.map((r) => (r.id === id ? { ...r, ...patch } : r));

/** A list request the test answers by hand, with what the server read before the events. */
function slowList(client: QueryClient, answer: Row[]) {
  let calls = 0;
  let release!: () => void;
  const landed = client.fetchQuery({
    queryKey: key,
    queryFn: () => {
      calls++;
      return new Promise<Row[]>((resolve) => (release = () => resolve(answer)));
    },
  });
  return { landed, release: () => release(), calls: () => calls };
}

describe("patchLive: real-time events on a cached list", () => {
  it("merges an event at once when no request is in flight", () => {
    const client = new QueryClient();
    client.setQueryData<Row[]>(key, [{ id: 1, status: "Em Análise", sent: 0 }]);
    patchLive(client, key, setStatus(1, { status: "Ativa" }));
    expect(client.getQueryData(key)).toEqual([{ id: 1, status: "Ativa", sent: 0 }]);
  });

  it("replays the events that arrived during the request on its older answer, in order, without asking again", async () => {
    const client = new QueryClient();
    const list = slowList(client, [{ id: 1, status: "Em Análise", sent: 0 }]);
    await Promise.resolve();
    patchLive(client, key, setStatus(1, { status: "Ativa" }));
    patchLive(client, key, setStatus(1, { status: "Em Disparo", sent: 3 }));
    patchLive(client, key, setStatus(1, { sent: 5 }));
    list.release();
    await list.landed;
    expect(client.getQueryData(key)).toEqual([{ id: 1, status: "Em Disparo", sent: 5 }]);
    expect(list.calls()).toBe(1);
    // later events merge at once again
    patchLive(client, key, setStatus(1, { status: "Finalizada" }));
    expect(client.getQueryData(key)).toEqual([{ id: 1, status: "Finalizada", sent: 5 }]);
  });
});
