import { useCallback, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import type { TicketAction as SharedAction } from "@atende/shared";
import { ticketKeys, updateTicket, type TicketUpdate } from "../api/tickets";
import { putTickets } from "../offline/db";
import { toastError } from "../../../lib/toast-error";
import type { Ticket } from "../types";
import { ticketFromConflict } from "./ticket-conflict";

export type TicketAction = Exclude<SharedAction, "transfer">;

/** The status transitions of spec 1-core §4, each one PUT /tickets/{id}. */
export function useTicketActions(meId: number) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<number | null>(null);

  const run = useCallback(
    async (action: TicketAction, t: Ticket, opts: { openAfter?: boolean; leaveAfter?: boolean } = {}): Promise<Ticket | null> => {
      setBusy(t.id);
      try {
        const { nextTicket, ...next } = await updateTicket(t.id, payload(action, t, meId));
        qc.setQueryData(ticketKeys.one(t.uuid), next);
        void putTickets([next]);
        // After a pause the server names the user's next open ticket to show.
        if (action === "pause" && nextTicket) navigate(`/tickets/${nextTicket.uuid}`);
        else if (opts.leaveAfter) navigate("/tickets");
        else if (opts.openAfter) navigate(`/tickets/${t.uuid}`);
        return next;
      } catch (err) {
        // Another agent acted first: show the ticket as it is now (the server sends it with the 409).
        const current = ticketFromConflict(err);
        if (current) {
          qc.setQueryData(ticketKeys.one(t.uuid), current);
          void putTickets([current]);
          void qc.invalidateQueries({ queryKey: ticketKeys.all, refetchType: "active" });
        }
        toastError(err);
        return null;
      } finally {
        setBusy(null);
      }
    },
    [qc, navigate, meId],
  );

  return { run, busy };
}

/** The PUT body of each transition (the action names it; status and user as the original clients send them). */
function payload(action: TicketAction, t: Ticket, meId: number): TicketUpdate {
  switch (action) {
    case "accept":
      return { action, status: "open", userId: meId, queueId: t.queueId };
    case "finish":
      return { action, status: "closed", useIntegration: false, promptId: null, integrationId: null };
    case "return":
      return { action, status: "pending", userId: null };
    case "resume":
      return { action, status: "open" };
    case "reopen":
      return { action, status: "open", userId: meId, queueId: t.queueId };
    case "pause":
      return { action, status: "paused" };
  }
}
