import { createContext, useContext } from "react";
import type { ContactRef } from "@atende/shared";

/**
 * Dialogs of one feature opened from another (the ticket's options menu schedules a message for its
 * contact): features ask through this context, and app/ — which composes features — renders them.
 */
export interface AppDialogs {
  /** The schedule dialog for a new message to this contact, over the current page. */
  openSchedule(contact: ContactRef): void;
}

export const AppDialogsContext = createContext<AppDialogs | null>(null);

export function useAppDialogs(): AppDialogs {
  const ctx = useContext(AppDialogsContext);
  if (!ctx) throw new Error("useAppDialogs outside AppDialogsProvider");
  return ctx;
}
