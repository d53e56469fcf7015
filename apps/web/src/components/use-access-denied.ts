import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { LIMITS } from "@atende/shared";
import { toast } from "../lib/toast";

/**
 * A page the user may not use explains it (the spec's toast) and leaves for `to` after
 * LIMITS.accessDeniedRedirectMs (1 s). The route's gate carries `deniedNotice` so the guard lets it render.
 */
export function useAccessDenied(allowed: boolean, message: string, to: string): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (allowed) return;
    toast.error(message, { toastId: `denied-${to}-${message.length}` });
    const timer = setTimeout(() => navigate(to, { replace: true }), LIMITS.accessDeniedRedirectMs);
    return () => clearTimeout(timer);
  }, [allowed, message, navigate, to]);
}
