import { useCallback, useEffect, useRef } from "react";
import { Box, LinearProgress, Skeleton, Typography } from "@mui/material";
import InboxIcon from "@mui/icons-material/Inbox";
import { useVirtualizer } from "@tanstack/react-virtual";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import type { UseTicketsList } from "../hooks/use-tickets-list";
import type { TicketAction } from "../hooks/use-ticket-actions";
import type { Ticket } from "../types";
import { TicketListItem } from "./ticket-list-item";

interface Props {
  list: UseTicketsList;
  selectedUuid?: string;
  busyId: number | null;
  onSelect(t: Ticket): void;
  onAction(action: TicketAction, t: Ticket): void;
  testId: string;
}

/** A virtualized ticket list; the next page loads within 100 px of the bottom. */
export function TicketsList({ list, selectedUuid, busyId, onSelect, onAction, testId }: Props) {
  const { t } = useTranslation();
  const { state, loadMore } = list;
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: state.tickets.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 104,
    overscan: 6,
    getItemKey: (i) => state.tickets[i]?.id ?? i,
  });

  const checkBottom = useCallback(() => {
    const el = parentRef.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LIMITS.listNextPageScrollPx) loadMore();
  }, [loadMore]);

  // A first page shorter than the viewport still needs the next one.
  useEffect(() => {
    if (!state.loading && state.hasMore) checkBottom();
  }, [state.loading, state.hasMore, state.tickets.length, checkBottom]);

  const items = virtualizer.getVirtualItems();
  return (
    <Box sx={{ position: "relative", flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }} data-testid={testId}>
      {state.loading && state.tickets.length > 0 && <LinearProgress sx={{ position: "absolute", top: 0, left: 0, right: 0, zIndex: 1, height: 2 }} />}
      <Box ref={parentRef} onScroll={checkBottom} sx={{ flex: 1, overflowY: "auto", minHeight: 0 }}>
        {state.tickets.length === 0 && state.loading && (
          <Box sx={{ p: 1.5 }}>
            {[0, 1, 2, 3].map((i) => (
              <Box key={i} sx={{ display: "flex", gap: 1.5, mb: 2 }}>
                <Skeleton variant="circular" width={44} height={44} />
                <Box sx={{ flex: 1 }}>
                  <Skeleton width="60%" />
                  <Skeleton width="90%" />
                  <Skeleton width="40%" />
                </Box>
              </Box>
            ))}
          </Box>
        )}
        {state.tickets.length === 0 && !state.loading && (
          <Box sx={{ p: 4, textAlign: "center", color: "text.secondary" }} data-testid="tickets-empty">
            <InboxIcon sx={{ fontSize: 48, opacity: 0.4 }} />
            <Typography variant="subtitle2">{t("tickets.list.emptyTitle")}</Typography>
            <Typography variant="body2">{t("tickets.list.emptyText")}</Typography>
          </Box>
        )}
        {state.tickets.length > 0 && (
          <Box sx={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
            <Box sx={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${items[0]?.start ?? 0}px)` }}>
              {items.map((row) => {
                const ticket = state.tickets[row.index];
                if (!ticket) return null;
                return (
                  <div key={row.key} data-index={row.index} ref={virtualizer.measureElement}>
                    <TicketListItem ticket={ticket} selected={ticket.uuid === selectedUuid} busy={busyId === ticket.id} onSelect={onSelect} onAction={onAction} />
                  </div>
                );
              })}
            </Box>
          </Box>
        )}
      </Box>
    </Box>
  );
}
