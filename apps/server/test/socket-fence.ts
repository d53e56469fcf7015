import { randomUUID } from "node:crypto";
import type { Socket } from "socket.io-client";
import { rooms } from "../src/core/realtime.js";
import type { TestApp } from "./helper.js";

const FENCE = "test-fence";

/**
 * Waits until every given socket has received everything the server emitted before this call: a
 * marker is emitted to every signed-in socket through the same queue as the product's events, and
 * socket.io keeps each connection's order, so once a socket has the marker it has every earlier
 * event. A test that must show an event did NOT reach someone checks after this instead of sleeping.
 * A request's emits are held until its answer is sent and then go out together: wait for one of them
 * to reach its audience first, so the marker cannot overtake the rest.
 */
export async function socketsCaughtUp(app: TestApp, sockets: Socket[], timeoutMs = 10_000): Promise<void> {
  const marker = randomUUID();
  const arrivals = sockets.map(
    (socket) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          socket.off(FENCE, listener);
          reject(new Error(`socketsCaughtUp: the marker did not reach socket ${socket.id ?? "(not connected)"} in ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (got: string) => {
          if (got !== marker) return;
          clearTimeout(timer);
          socket.off(FENCE, listener);
          resolve();
        };
        socket.on(FENCE, listener);
      }),
  );
  app.ctx.realtime.emit(rooms.everyone(), FENCE, marker);
  await Promise.all(arrivals);
}
