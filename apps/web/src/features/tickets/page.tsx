import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Box, Paper, Tab, Tabs, Typography } from "@mui/material";
import ForumOutlinedIcon from "@mui/icons-material/ForumOutlined";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../../lib/session";
import { TicketsManager } from "./components/tickets-manager";
import { useWorkspace, WorkspaceProvider } from "./components/workspace-context";
import { useFillHeight } from "./hooks/use-fill-height";
import { useOfflineSync } from "./offline/sync";
import type { Ticket } from "./types";

// the conversation (messages, input, contact drawer) loads when a ticket is opened: the list shows first
const TicketView = lazy(() => import("./components/ticket-view").then((m) => ({ default: m.TicketView })));

function Placeholder() {
  const { t } = useTranslation();
  return (
    <Box sx={{ height: "100%", display: "grid", placeItems: "center", textAlign: "center", p: 4, bgcolor: "background.default" }} data-testid="ticket-placeholder">
      <Box>
        <Box sx={{ width: 120, height: 120, borderRadius: "50%", bgcolor: "action.hover", display: "grid", placeItems: "center", mx: "auto", mb: 2 }}>
          <ForumOutlinedIcon sx={{ fontSize: 64, color: "primary.main", opacity: 0.8 }} />
        </Box>
        <Typography variant="h6">{t("tickets.placeholder.title")}</Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 360 }}>
          {t("tickets.placeholder.text")}
        </Typography>
      </Box>
    </Box>
  );
}

function Workspace() {
  const { t } = useTranslation();
  const { me, narrow } = useWorkspace();
  const { ticketId } = useParams();
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const height = useFillHeight(ref);
  const [mobileTab, setMobileTab] = useState<"ticket" | "list">(ticketId ? "ticket" : "list");
  useOfflineSync(me);

  // Choosing a ticket (or being sent to one) shows it on narrow screens.
  useEffect(() => {
    setMobileTab(ticketId ? "ticket" : "list");
  }, [ticketId]);

  const select = useCallback(
    (tk: Ticket) => {
      navigate(`/tickets/${tk.uuid}`);
      setMobileTab("ticket");
    },
    [navigate],
  );

  const view = ticketId ? (
    <Suspense fallback={null}>
      <TicketView key={ticketId} uuid={ticketId} onBack={narrow ? () => setMobileTab("list") : undefined} />
    </Suspense>
  ) : (
    <Placeholder />
  );

  if (narrow) {
    return (
      <Paper ref={ref} sx={{ height, display: "flex", flexDirection: "column", overflow: "hidden" }} data-testid="tickets-workspace" data-layout="narrow">
        <Tabs value={mobileTab} onChange={(_, v: "ticket" | "list") => setMobileTab(v)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: "divider", minHeight: 44, "& .MuiTab-root": { minHeight: 44 } }}>
          <Tab value="ticket" label={t("tickets.mobile.ticket")} data-testid="mobile-tab-ticket" />
          <Tab value="list" label={t("tickets.mobile.list")} data-testid="mobile-tab-list" />
        </Tabs>
        <Box sx={{ flex: 1, minHeight: 0, display: mobileTab === "list" ? "flex" : "none", flexDirection: "column" }}>
          <TicketsManager selectedUuid={ticketId} onSelect={select} />
        </Box>
        <Box sx={{ flex: 1, minHeight: 0, display: mobileTab === "ticket" ? "block" : "none" }}>{view}</Box>
      </Paper>
    );
  }

  return (
    <Paper ref={ref} sx={{ height, display: "flex", overflow: "hidden" }} data-testid="tickets-workspace" data-layout="wide">
      <Box sx={{ width: "33.333%", minWidth: 320, maxWidth: 480, height: "100%", display: "flex", flexDirection: "column" }}>
        <TicketsManager selectedUuid={ticketId} onSelect={select} />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0, height: "100%" }}>{view}</Box>
    </Paper>
  );
}

export default function TicketsPage() {
  const me = useCurrentUser();
  return (
    <WorkspaceProvider me={me}>
      <Workspace />
    </WorkspaceProvider>
  );
}
