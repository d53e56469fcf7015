import { useEffect, useState } from "react";
import { ENDED_ELSEWHERE_KEY } from "../../lib/storage";
import { channel, CLIENT_EVENTS, LIMITS, type SessionUser } from "@atende/shared";
import { useSession } from "../../lib/session";
import { disconnectSocket, getSocket } from "../../lib/socket";
import { useSocketEvent } from "../../lib/use-socket-event";
import { logFailure } from "../../lib/log-failure";

type AuthEvent = { action?: string; user?: { id?: number } };
type UserEvent = { action?: string; user?: { id?: number }; userId?: number };

/**
 * The session's real-time side (spec 1-core §4, §7): connects the socket, announces the user's
 * presence every 5 minutes, leaves when the same account logs in elsewhere and follows live changes
 * of the current user. Returns true once the session was ended elsewhere: the shell then stops showing
 * the pages, so nothing keeps calling the API (and reacting to its 401s) until the reload.
 */
export function useSessionRealtime(user: SessionUser): boolean {
  const { reload, clearLocalData } = useSession();
  const [endedElsewhere, setEndedElsewhere] = useState(false);

  useEffect(() => {
    const socket = getSocket();
    const hello = () => {
      socket.emit(CLIENT_EVENTS.joinNotification);
      socket.emit(CLIENT_EVENTS.userStatus);
    };
    socket.on("connect", hello);
    if (socket.connected) hello();
    const timer = setInterval(() => socket.emit(CLIENT_EVENTS.userStatus), LIMITS.userStatusIntervalMs);
    return () => {
      socket.off("connect", hello);
      clearInterval(timer);
    };
  }, [user.id]);

  useSocketEvent<AuthEvent>(channel.auth(user.companyId), (ev) => {
    if (ev?.user?.id !== user.id) return;
    // Not a logout call: that would revoke the new session too. The old refresh token is already spent.
    // The notice is drawn by the shell now and by the login page after the reload (not a toast, whose
    // lazily loaded container could still be loading when the page reloads).
    sessionStorage.setItem(ENDED_ELSEWHERE_KEY, "1");
    setEndedElsewhere(true);
    void clearLocalData();
    disconnectSocket();
    setTimeout(() => window.location.reload(), LIMITS.loginElsewhereReloadMs);
  });

  useSocketEvent<UserEvent>(channel.user(user.companyId), (ev) => {
    const id = ev?.user?.id ?? ev?.userId;
    if (id !== user.id) return;
    // A deleted account gets a 401 here, which ends the session through the API client.
    void reload().catch((err: unknown) => logFailure("session refresh after a user event failed", err, { userId: id }));
  });

  return endedElsewhere;
}
