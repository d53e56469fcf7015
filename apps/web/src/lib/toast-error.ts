import { toast } from "./toast";
import i18n from "./i18n";
import { ApiError } from "./api";

/**
 * Error toasts (spec 1-core §8): the translation of the server's code when one exists, otherwise the
 * server's message string, otherwise the generic text.
 */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const code = err.code;
    if (code && i18n.exists(`backendErrors.${code}`)) return i18n.t(`backendErrors.${code}`);
    if (err.body.message) return err.body.message;
  } else if (typeof err === "string" && err) {
    return err;
  }
  return i18n.t("backendErrors.default");
}

export function toastError(err: unknown): void {
  toast.error(errorText(err), { toastId: errorText(err), autoClose: 2000 });
}
