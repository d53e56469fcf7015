import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Badge, Box, Button, FormControlLabel, Paper, Switch, Tab, Tabs, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import CheckBoxIcon from "@mui/icons-material/CheckBox";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import MoveToInboxIcon from "@mui/icons-material/MoveToInbox";
import SearchIcon from "@mui/icons-material/Search";
import { useQuery } from "@tanstack/react-query";
import { can, LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { queuesQuery, tagsQuery, usersQuery } from "../api/lookups";
import { fetchTicket, ticketKeys } from "../api/tickets";
import { useDebounced } from "../hooks/use-debounced";
import { useTicketActions, type TicketAction } from "../hooks/use-ticket-actions";
import { useTicketsList } from "../hooks/use-tickets-list";
import { isSystemQueueName } from "../lib/rules";
import type { ListTab, QueueRef, TagRef, Ticket, UserRef } from "../types";
import type { Origin } from "./search-filters";
import { QueueSelect } from "./queue-select";
import { TicketsList } from "./tickets-list";
import { useWorkspace } from "./workspace-context";

// loaded when first opened, not with the workspace
const loadNewTicket = () => import("./new-ticket-modal");
const NewTicketModal = lazy(() => loadNewTicket().then((m) => ({ default: m.NewTicketModal })));
/** Fetched as the pointer reaches the button, so the dialog opens at once. */
const preloadNewTicket = () => void loadNewTicket();

// the search tab's filters (text field, tag and user pickers, origin select) load when the tab is opened
const SearchFilters = lazy(() => import("./search-filters").then((m) => ({ default: m.SearchFilters })));

function CountBadge({ count, children, testId }: { count: number; children: ReactNode; testId: string }) {
  return (
    <Badge badgeContent={count} color="error" max={999} slotProps={{ badge: { "data-testid": testId } as object }}>
      {children}
    </Badge>
  );
}

/** The list column: tabs with counts, the controls of spec 1-core §2 and the lists themselves. */
export function TicketsManager({ selectedUuid, onSelect }: { selectedUuid?: string; onSelect(t: Ticket): void }) {
  const { t } = useTranslation();
  const { me } = useWorkspace();
  const [tab, setTab] = useState<ListTab>("open");
  const [pendingTab, setPendingTab] = useState<"pending" | "paused">("pending");
  const mayShowAll = can(me, "tickets-manager:showall");
  const [showAll, setShowAll] = useState(mayShowAll);
  const [newOpen, setNewOpen] = useState(false);

  // Queues: admins may filter by every queue; others by their own. System queues start unselected.
  const allQueues = can(me, "tickets:allQueues");
  const { data: companyQueues } = useQuery({ ...queuesQuery(), enabled: allQueues });
  const queueOptions: QueueRef[] = useMemo(() => (allQueues ? (companyQueues ?? me.queues) : me.queues), [allQueues, companyQueues, me.queues]);
  const [queueIds, setQueueIds] = useState<number[] | null>(null);
  const defaultQueueIds = useMemo(() => queueOptions.filter((q) => !isSystemQueueName(q.name)).map((q) => q.id), [queueOptions]);
  const selectedQueues = queueIds ?? defaultQueueIds;

  // Search filters.
  const [searchText, setSearchText] = useState("");
  const searchParam = useDebounced(searchText.trim(), LIMITS.searchDebounceMs);
  const [tagFilter, setTagFilter] = useState<TagRef[]>([]);
  const [userFilter, setUserFilter] = useState<UserRef[]>([]);
  const [originFilter, setOriginFilter] = useState<Origin[]>([]);
  const showUserFilter = can(me, "tickets:userFilter");
  const { data: tags } = useQuery({ ...tagsQuery(), enabled: tab === "search" });
  const { data: users } = useQuery({ ...usersQuery(), enabled: tab === "search" && showUserFilter });

  // The lists wait for the queue filter: asked once with it, not once before and again after it loads.
  const queuesReady = !allQueues || companyQueues !== undefined;
  const base = { me, showAll: mayShowAll ? showAll : false, queueIds: selectedQueues };
  const open = useTicketsList({ ...base, status: "open", enabled: queuesReady });
  const pending = useTicketsList({ ...base, status: "pending", enabled: queuesReady });
  const paused = useTicketsList({ ...base, status: "paused", enabled: queuesReady });
  const closed = useTicketsList({ ...base, status: "closed", enabled: queuesReady && tab === "closed" });
  const search = useTicketsList({
    ...base,
    searchParam,
    tags: tagFilter.map((x) => x.id),
    users: userFilter.map((x) => x.id),
    origins: originFilter,
    enabled: queuesReady && tab === "search",
  });

  // The list follows the open conversation when its status changes (accepted or resumed from its
  // header or the bar under the messages, or by a socket update): after 'Aceitar' the ticket is
  // shown selected under Abertas, not an empty Aguardando. Read from the conversation's own cache
  // entry (never fetched here); a ticket merely selected from another tab does not move the list.
  const { data: selected } = useQuery({ queryKey: ticketKeys.one(selectedUuid ?? ""), queryFn: () => fetchTicket(selectedUuid ?? ""), enabled: false });
  const seen = useRef<{ uuid?: string; status?: string }>({});
  useEffect(() => {
    const before = seen.current;
    seen.current = { uuid: selected?.uuid, status: selected?.status };
    if (!selected || before.uuid !== selected.uuid || !before.status || before.status === selected.status) return;
    if (selected.status === "open") setTab((x) => (x === "search" ? x : "open"));
    else if (selected.status === "pending" || selected.status === "paused") {
      setTab((x) => (x === "search" ? x : "pending"));
      setPendingTab(selected.status);
    }
  }, [selected]);

  const { run, busy } = useTicketActions(me.id);
  const onAction = useCallback(
    (a: TicketAction, ticket: Ticket) => {
      void run(a, ticket, { openAfter: a === "accept" || a === "resume" || a === "reopen", leaveAfter: a === "finish" && ticket.uuid === selectedUuid });
      if (a === "accept" || a === "resume" || a === "reopen") setTab("open");
    },
    [run, selectedUuid],
  );

  // Ctrl+X opens the new-ticket modal, unless the user is cutting text.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "x" || e.shiftKey || e.altKey) return;
      const el = document.activeElement as HTMLElement | null;
      const editing = el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
      if (editing || (window.getSelection()?.toString() ?? "") !== "") return;
      e.preventDefault();
      setNewOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const current = tab === "open" ? open : tab === "closed" ? closed : tab === "search" ? search : pendingTab === "paused" ? paused : pending;
  const listId = tab === "pending" ? `list-${pendingTab}` : `list-${tab}`;

  return (
    <Paper square elevation={0} sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0, borderRight: 1, borderColor: "divider" }}>
      <Tabs
        value={tab}
        onChange={(_, v: ListTab) => setTab(v)}
        variant="fullWidth"
        sx={{ minHeight: 56, borderBottom: 1, borderColor: "divider", "& .MuiTab-root": { minWidth: 0, minHeight: 56, px: 0.5, fontSize: 12, textTransform: "none" } }}
      >
        <Tab value="open" data-testid="tab-open" icon={<CountBadge count={open.state.count} testId="badge-open"><MoveToInboxIcon fontSize="small" /></CountBadge>} label={t("tickets.tabs.open")} />
        <Tab value="pending" data-testid="tab-pending" icon={<CountBadge count={pending.state.count + paused.state.count} testId="badge-pending-area"><HourglassEmptyIcon fontSize="small" /></CountBadge>} label={t("tickets.tabs.pending")} />
        <Tab value="closed" data-testid="tab-closed" icon={<CheckBoxIcon fontSize="small" />} label={t("tickets.tabs.closed")} />
        <Tab value="search" data-testid="tab-search" icon={<SearchIcon fontSize="small" />} label={t("tickets.tabs.search")} />
      </Tabs>

      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, py: 1, borderBottom: 1, borderColor: "divider", flexWrap: "wrap" }}>
        <Tooltip title={t("tickets.manager.newShortcut")}>
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setNewOpen(true)} onPointerEnter={preloadNewTicket} onFocus={preloadNewTicket} data-testid="new-ticket-button">
            {t("tickets.manager.new")}
          </Button>
        </Tooltip>
        {mayShowAll && (
          <FormControlLabel
            sx={{ mr: 0, ml: 0.5, "& .MuiFormControlLabel-label": { fontSize: 13 } }}
            control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} inputProps={{ "aria-label": t("tickets.manager.showAll") }} />}
            label={t("tickets.manager.showAll")}
          />
        )}
        <Box sx={{ flex: 1 }} />
        <QueueSelect queues={queueOptions} value={selectedQueues} onChange={setQueueIds} />
      </Box>

      {tab === "search" && (
        <Suspense fallback={null}>
          <SearchFilters
            searchText={searchText}
            onSearchText={setSearchText}
            tags={tags ?? []}
            tagFilter={tagFilter}
            onTagFilter={setTagFilter}
            users={showUserFilter ? (users ?? []) : null}
            userFilter={userFilter}
            onUserFilter={setUserFilter}
            originFilter={originFilter}
            onOriginFilter={setOriginFilter}
          />
        </Suspense>
      )}

      {tab === "pending" && (
        <Tabs
          value={pendingTab}
          onChange={(_, v: "pending" | "paused") => setPendingTab(v)}
          variant="fullWidth"
          sx={{ minHeight: 40, borderBottom: 1, borderColor: "divider", "& .MuiTab-root": { minHeight: 40, fontSize: 12, textTransform: "none", gap: 1.5 } }}
        >
          <Tab value="pending" data-testid="subtab-pending" iconPosition="end" icon={<CountBadge count={pending.state.count} testId="badge-pending"><span /></CountBadge>} label={t("tickets.tabs.waiting")} />
          <Tab value="paused" data-testid="subtab-paused" iconPosition="end" icon={<CountBadge count={paused.state.count} testId="badge-paused"><span /></CountBadge>} label={t("tickets.tabs.paused")} />
        </Tabs>
      )}

      <TicketsList key={listId} testId={listId} list={current} selectedUuid={selectedUuid} busyId={busy} onSelect={onSelect} onAction={onAction} />
      {newOpen && (
        <Suspense fallback={null}>
          <NewTicketModal open onClose={() => setNewOpen(false)} onCreated={() => setTab("open")} />
        </Suspense>
      )}
    </Paper>
  );
}
