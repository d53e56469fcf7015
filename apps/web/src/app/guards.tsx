import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { canVisit, gateForPath } from "@atende/shared";
import { LoadingBar } from "../components/loading-bar";
import { useSession } from "../lib/session";

function Loading() {
  return <LoadingBar />;
}

/**
 * Private pages: unauthenticated visitors go to /login; a page the user's role or plan does not allow goes to
 * /tickets, at once, unless its gate says the page explains the refusal itself (deniedNotice).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <Loading />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!canVisit(user, user.company.plan, location.pathname) && !gateForPath(location.pathname).deniedNotice) {
    return <Navigate to="/tickets" replace />;
  }
  return <>{children}</>;
}

/** Public pages: an authenticated user goes to /. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user, loading, landing } = useSession();
  if (loading) return <Loading />;
  if (user) return <Navigate to={landing} replace />;
  return <>{children}</>;
}
