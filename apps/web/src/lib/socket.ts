import { io, type Socket } from "socket.io-client";
import { CLIENT_EVENTS, LIMITS } from "@atende/shared";
import { getToken, onTokenRefreshed, refreshSession, sessionGone } from "./api";
import { registerSocketCloser } from "./socket-closer";

let socket: Socket | null = null;
let stopListening: (() => void) | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** Seconds since the epoch when the access token expires (read, not verified: the server verifies). */
export function tokenExpiry(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: unknown };
    return typeof payload.exp === "number" ? payload.exp : null;
    // eslint-disable-next-line no-restricted-syntax -- not a JWT: the server will refuse it and the usual refresh follows
  } catch {
    return null;
  }
}

/**
 * The server closes a socket whose access token expires unless it receives the refreshed one, so
 * refresh a little before expiry (at 80 % of the remaining life, at most a minute early); the
 * refresh hands the new token to the socket through `onTokenRefreshed`.
 */
function scheduleRefresh(token: string | null): void {
  clearTimeout(refreshTimer);
  const exp = token ? tokenExpiry(token) : null;
  if (!exp) return;
  const left = exp * 1000 - Date.now();
  refreshTimer = setTimeout(() => void refreshSession(), Math.max(0, Math.max(left * 0.8, left - 60_000)));
}

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
      scheduleRefresh(getToken());
    });
    s.on("connect_error", (err) => {
      if (s.active || refusals++ >= 3 || err.message === "ERR_TOO_MANY_SOCKETS") return;
      void refreshSession().then((ok) => {
        if (ok && socket === s) s.connect();
      });
    });
    // The server closed this socket: its token expired unseen (a sleeping tab) or its session ended
    // (logout elsewhere, password change, deactivated company...). A refresh tells which.
    s.on("disconnect", (reason) => {
      if (reason !== "io server disconnect" || socket !== s) return;
      void refreshSession().then((ok) => {
        if (socket !== s) return;
        if (ok) s.connect();
        else sessionGone();
      });
    });
    stopListening = onTokenRefreshed((token) => {
      scheduleRefresh(token);
      if (s.connected) s.emit(CLIENT_EVENTS.authToken, token);
    });
    socket = s;
  }
  return socket;
}

export function disconnectSocket(): void {
  clearTimeout(refreshTimer);
  stopListening?.();
  stopListening = null;
  const s = socket;
  socket = null;
  s?.disconnect();
}
registerSocketCloser(disconnectSocket);

export const USER_STATUS_INTERVAL = LIMITS.userStatusIntervalMs;
