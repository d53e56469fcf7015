import { io, type Socket } from "socket.io-client";
import { LIMITS } from "@atende/shared";
import { getToken } from "./api";

let socket: Socket | null = null;

/** The app's one socket, authenticated with the current access token. */
export function getSocket(): Socket {
  if (!socket) {
    socket = io({
      path: "/socket.io",
      transports: ["websocket", "polling"],
      auth: (cb) => cb({ token: getToken() ?? "" }),
    });
  }
  return socket;
}

export function disconnectSocket(): void {
  socket?.disconnect();
  socket = null;
}

export const USER_STATUS_INTERVAL = LIMITS.userStatusIntervalMs;
