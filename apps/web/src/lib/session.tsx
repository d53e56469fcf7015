import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { SessionResponse, SessionUser } from "@atende/shared";
import { api, ApiError, getToken, lastRefreshRefused, onUnauthorized, refreshSession, setToken } from "./api";
import { closeSocket } from "./socket-closer";
import { clearSessionData, STORAGE_KEYS, writeJson } from "./storage";
import { logFailure } from "./log-failure";

/**
 * Deletes what a feature keeps on this device for one user (the tickets' offline cache). Handed in by
 * the app's entry so the session does not depend on any feature; must not reject.
 */
export type ClearUserData = (user: SessionUser) => Promise<void>;

interface SessionState {
  user: SessionUser | null;
  loading: boolean;
  /** Where a public page sends an authenticated user: /tickets right after a login, / otherwise. */
  landing: string;
  login(email: string, password: string): Promise<SessionResponse>;
  logout(): Promise<void>;
  /** Re-reads the user (after a live update of it). */
  reload(): Promise<void>;
  setUser(user: SessionUser): void;
  /** Deletes the session's local data on this device: storage keys and every feature's user data. */
  clearLocalData(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/** Empties the query cache (loaded with the first page that fetches, not with the login page). */
function clearQueryCache(): void {
  import("./query-client")
    .then((m) => m.queryClient.clear())
    .catch((err: unknown) => logFailure("could not clear the query cache", err));
}

function remember(user: SessionUser) {
  localStorage.setItem(STORAGE_KEYS.companyId, String(user.companyId));
  localStorage.setItem(STORAGE_KEYS.userId, String(user.id));
  localStorage.setItem(STORAGE_KEYS.companyDueDate, user.company.dueDate ?? "");
  writeJson(STORAGE_KEYS.settings, user.company.settings);
}

export function SessionProvider({ children, clearUserData }: { children: ReactNode; clearUserData: ClearUserData }) {
  const [user, setUserState] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [landing, setLanding] = useState("/");

  const setUser = useCallback((u: SessionUser) => {
    remember(u);
    setUserState(u);
  }, []);

  const reload = useCallback(async () => {
    setUser(await api<SessionUser>("/auth/me"));
  }, [setUser]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        if (!getToken()) {
          // Without the marker a signed-in session leaves on this device there is nothing to refresh:
          // an anonymous first visit shows the login page at once, without a refused call.
          if (!localStorage.getItem(STORAGE_KEYS.userId)) return;
          if (!(await refreshSession())) {
            // the marker goes only when the server refused: a refresh cut short by leaving the page
            // must not make the next page forget a live session
            if (lastRefreshRefused()) clearSessionData();
            return;
          }
        }
        const me = await api<SessionUser>("/auth/me");
        if (!cancelled) setUser(me);
      } catch (err) {
        logFailure("restoring the session failed", err);
        // only a refusal ends the stored session; an unanswered call (the page was left) does not
        if (err instanceof ApiError && err.status === 401) clearSessionData();
      } finally {
        if (!cancelled) setLoading(false);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [setUser]);

  useEffect(
    () =>
      onUnauthorized(() => {
        closeSocket();
        setUserState(null);
        clearQueryCache();
      }),
    [],
  );

  const clearLocalData = useCallback(async () => {
    clearSessionData();
    // Feature caches (IndexedDB, one database per user) must not outlive the session.
    if (user) await clearUserData(user);
  }, [user, clearUserData]);

  const value = useMemo<SessionState>(
    () => ({
      user,
      loading,
      landing,
      setUser,
      reload,
      clearLocalData,
      async login(email, password) {
        const res = await api<SessionResponse>("/auth/login", { method: "POST", body: { email, password }, raw: true });
        setToken(res.token);
        setLanding("/tickets");
        setUser(res.user);
        return res;
      },
      async logout() {
        // The socket goes first: the server closes the socket of a session it ends, and the client
        // took that close for an expired token and asked refresh_token (401 in the console).
        closeSocket();
        try {
          await api("/auth/logout", { method: "DELETE", raw: true });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
        }
        await clearLocalData();
        clearQueryCache();
        setUserState(null);
      },
    }),
    [user, loading, landing, setUser, reload, clearLocalData],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error("useSession outside SessionProvider");
  return ctx;
}

/** The logged-in user; only for components under the private route guard. */
export function useCurrentUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error("useCurrentUser without a session");
  return user;
}
