import { lazy, Suspense, useState, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { Box, Button, ButtonBase, IconButton, ListItemIcon, Menu, MenuItem, Tooltip, Typography } from "@mui/material";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CheckCircleOutlineIcon from "@mui/icons-material/CheckCircleOutline";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import DoneIcon from "@mui/icons-material/Done";
import EventIcon from "@mui/icons-material/Event";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import ReplayIcon from "@mui/icons-material/Replay";
import StickyNote2Icon from "@mui/icons-material/StickyNote2";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import UndoIcon from "@mui/icons-material/Undo";
import { can } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { deleteTicket } from "../api/tickets";
import { useTicketActions, type TicketAction } from "../hooks/use-ticket-actions";
import { canAccept, canFinish, canPause, canReopen, canResume, canReturn, canTransfer, showsActions } from "../lib/rules";
import { toastError } from "../../../lib/toast-error";
import type { Ticket } from "../types";
import { ConfirmDialog } from "./confirm-dialog";
import { ContactAvatar } from "./contact-avatar";
import { useWorkspace } from "./workspace-context";
import { useAppDialogs } from "../../../lib/app-dialogs";

// loaded when first opened, not with the workspace
const loadTransfer = () => import("./transfer-modal");
const TransferModal = lazy(() => loadTransfer().then((m) => ({ default: m.TransferModal })));
/** Fetched as the pointer reaches the button, so the dialog opens at once. */
const preloadTransfer = () => void loadTransfer();

/** The conversation header: contact (opens the drawer), status actions, transfer and the options menu. */
export function TicketHeader({ ticket, compact, onOpenContact, onBack }: { ticket: Ticket; compact: boolean; onOpenContact(): void; onBack?: () => void }) {
  const { t } = useTranslation();
  const { me } = useWorkspace();
  const narrow = compact;
  const navigate = useNavigate();
  const { openSchedule } = useAppDialogs();
  const { run, busy } = useTicketActions(me.id);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transfer, setTransfer] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const actions = showsActions(me, ticket);
  const doing = busy === ticket.id;

  const act = (a: TicketAction) => () => void run(a, ticket, { leaveAfter: a === "finish" || a === "return" || a === "pause" });

  function labelled(a: TicketAction, icon: ReactNode, variant: "contained" | "outlined" | "text", color: "primary" | "success" | "error" | "warning" | "inherit" = "primary") {
    const label = t(`tickets.actions.${a}`);
    if (narrow) {
      return (
        <Tooltip title={label} key={a}>
          <span>
            <IconButton color={color === "inherit" ? "default" : color} onClick={act(a)} disabled={doing} aria-label={label} data-testid={`header-${a}`}>
              {icon}
            </IconButton>
          </span>
        </Tooltip>
      );
    }
    return (
      <Button key={a} size="small" variant={variant} color={color} startIcon={icon} onClick={act(a)} disabled={doing} data-testid={`header-${a}`}>
        {label}
      </Button>
    );
  }

  function iconAction(a: TicketAction, icon: ReactNode) {
    const label = t(`tickets.actions.${a}`);
    return (
      <Tooltip title={label} key={a}>
        <span>
          <IconButton onClick={act(a)} disabled={doing} aria-label={label} data-testid={`header-${a}`}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  }

  function menuAction(a: TicketAction, icon: ReactNode) {
    return (
      <MenuItem
        key={a}
        disabled={doing}
        onClick={() => {
          setMenu(null);
          act(a)();
        }}
      >
        <ListItemIcon>{icon}</ListItemIcon>
        {t(`tickets.actions.${a}`)}
      </MenuItem>
    );
  }

  async function remove() {
    try {
      await deleteTicket(ticket.id);
      navigate("/tickets");
    } catch (err) {
      toastError(err);
    }
  }

  const subtitle = ticket.user ? t("tickets.header.assignedTo", { name: ticket.user.name }) : t(`tickets.status.${ticket.status}`);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1, py: 0.75, minHeight: 60, borderBottom: 1, borderColor: "divider", bgcolor: "background.paper" }} data-testid="ticket-header">
      {onBack && (
        <IconButton onClick={onBack} aria-label={t("tickets.header.back")}>
          <ArrowBackIcon />
        </IconButton>
      )}
      <ButtonBase onClick={onOpenContact} sx={{ display: "flex", alignItems: "center", gap: 1.25, borderRadius: 1, px: 1, py: 0.5, minWidth: 96, flex: "1 1 auto", justifyContent: "flex-start" }} data-testid="open-contact">
        <ContactAvatar name={ticket.contact?.name ?? ""} src={ticket.contact?.profilePicUrl} size={40} />
        <Box sx={{ minWidth: 0, textAlign: "left" }}>
          <Typography noWrap sx={{ fontWeight: 600 }} data-testid="header-contact-name">
            {ticket.contact?.name}
          </Typography>
          <Typography noWrap variant="caption" color="text.secondary" component="div">
            #{ticket.id} · {subtitle}
            {ticket.queue ? ` · ${ticket.queue.name}` : ""}
          </Typography>
        </Box>
      </ButtonBase>
      <Box sx={{ display: "flex", alignItems: "center", gap: narrow ? 0 : 1, flexShrink: 0 }}>
        {!narrow && actions && canReturn(me, ticket) && iconAction("return", <UndoIcon />)}
        {!narrow && actions && canPause(me, ticket) && iconAction("pause", <PauseIcon />)}
        {actions && canAccept(me, ticket) && labelled("accept", <DoneIcon />, "contained", "success")}
        {actions && canResume(me, ticket) && labelled("resume", <PlayArrowIcon />, "contained", "success")}
        {actions && canFinish(me, ticket) && labelled("finish", <CheckCircleOutlineIcon />, ticket.status === "open" ? "contained" : "outlined", "primary")}
        {canReopen(me, ticket) && labelled("reopen", <ReplayIcon />, "contained", "primary")}
        {!narrow && canTransfer(me, ticket) && (
          <Tooltip title={t("tickets.header.transfer")}>
            <IconButton onClick={() => setTransfer(true)} onPointerEnter={preloadTransfer} onFocus={preloadTransfer} aria-label={t("tickets.header.transfer")} data-testid="header-transfer">
              <SwapHorizIcon />
            </IconButton>
          </Tooltip>
        )}
        <IconButton onClick={(e) => setMenu(e.currentTarget)} aria-label={t("tickets.header.options")} data-testid="header-options">
          <MoreVertIcon />
        </IconButton>
      </Box>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        {narrow && actions && canReturn(me, ticket) && menuAction("return", <UndoIcon fontSize="small" />)}
        {narrow && actions && canPause(me, ticket) && menuAction("pause", <PauseIcon fontSize="small" />)}
        {canTransfer(me, ticket) && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setTransfer(true);
            }}
          >
            <ListItemIcon>
              <SwapHorizIcon fontSize="small" />
            </ListItemIcon>
            {t("tickets.header.transfer")}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            setMenu(null);
            openSchedule(ticket.contact);
          }}
          data-testid="header-schedule"
        >
          <ListItemIcon>
            <EventIcon fontSize="small" />
          </ListItemIcon>
          {t("tickets.header.schedule")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenu(null);
            onOpenContact();
          }}
        >
          <ListItemIcon>
            <StickyNote2Icon fontSize="small" />
          </ListItemIcon>
          {t("tickets.header.notes")}
        </MenuItem>
        {can(me, "tickets:delete") && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setConfirmDelete(true);
            }}
            sx={{ color: "error.main" }}
          >
            <ListItemIcon>
              <DeleteOutlineIcon fontSize="small" color="error" />
            </ListItemIcon>
            {t("common.delete")}
          </MenuItem>
        )}
      </Menu>
      {transfer && (
        <Suspense fallback={null}>
          <TransferModal ticket={ticket} open onClose={() => setTransfer(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={confirmDelete}
        danger
        title={t("tickets.header.deleteTitle", { id: ticket.id })}
        text={t("tickets.header.deleteText")}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => void remove()}
      />
    </Box>
  );
}
