import { io, type Socket } from "socket.io-client";
import { LIMITS } from "@atende/shared";
import { getToken, refreshSession } from "./api";

let socket: Socket | null = null;

/** The app's one socket, authenticated with the current access token. */
export function getSocket(): Socket {
  if (!socket) {
    const s = io({
      path: "/socket.io",
      transports: ["websocket", "polling"],
      auth: (cb) => cb({ token: getToken() ?? "" }),
    });
    // The server refuses the handshake once the short-lived access token has expired; the client
    // does not retry such a refusal by itself, so refresh the token (a few times at most) and reconnect.
    let refusals = 0;
    s.on("connect", () => {
      refusals = 0;
    });
    s.on("connect_error", () => {
      if (s.active || refusals++ >= 3) return;
      void refreshSession().then((ok) => {
        if (ok && socket === s) s.connect();
      });
    });
    socket = s;
  }
  return socket;
}

export function disconnectSocket(): void {
  socket?.disconnect();
  socket = null;
}

export const USER_STATUS_INTERVAL = LIMITS.userStatusIntervalMs;
