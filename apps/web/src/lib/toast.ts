import type { ReactNode } from "react";
import type { ToastOptions } from "react-toastify";
import { logFailure } from "./log-failure";

type Toastify = (typeof import("react-toastify"))["toast"];
type Kind = "success" | "error" | "info" | "warn";

let mountHost: (() => Promise<void>) | null = null;
let ready: Promise<Toastify> | null = null;

/** app/toast-host.tsx registers how to mount the container (once, at start). */
export function registerToastHost(mount: () => Promise<void>): void {
  mountHost = mount;
}

/**
 * The toast library and its container load with the first toast, not with the login page: a toast
 * asked for meanwhile waits for them (a few milliseconds), then shows as usual.
 */
function toastify(): Promise<Toastify> {
  ready ??= Promise.all([import("react-toastify"), mountHost?.()]).then(([m]) => m.toast);
  return ready;
}

function show(kind: Kind, content: ReactNode, options?: ToastOptions): void {
  toastify()
    .then((t) => t[kind](content, options))
    .catch((err: unknown) => logFailure("could not show a toast", err, { kind }));
}

/** react-toastify's toast, loaded on first use. */
export const toast = {
  success: (content: ReactNode, options?: ToastOptions) => show("success", content, options),
  error: (content: ReactNode, options?: ToastOptions) => show("error", content, options),
  info: (content: ReactNode, options?: ToastOptions) => show("info", content, options),
  warn: (content: ReactNode, options?: ToastOptions) => show("warn", content, options),
};
