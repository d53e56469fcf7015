import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { Box, Chip, CircularProgress, IconButton, InputBase, Paper, Tooltip, Typography } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CloseIcon from "@mui/icons-material/Close";
import DrawIcon from "@mui/icons-material/Draw";
import HighlightOffIcon from "@mui/icons-material/HighlightOff";
import MicIcon from "@mui/icons-material/Mic";
import SendIcon from "@mui/icons-material/Send";
import ViewQuiltIcon from "@mui/icons-material/ViewQuilt";
import { useQuery } from "@tanstack/react-query";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { quickMessagesQuery } from "../api/lookups";
import { sendMediaMessage, sendTextMessage } from "../api/messages";
import { startRecording, type Recording } from "../lib/audio-recorder";
import { formatBytes, truncate } from "../lib/format";
import { ApiError } from "../../../lib/api";
import { STORAGE_KEYS } from "../../../lib/storage";
import { toastError } from "../../../lib/toast-error";
import type { Message, QuickReply, Ticket } from "../types";
import { QuickReplies } from "./quick-replies";
import { useWorkspace } from "./workspace-context";
import { logFailure } from "../../../lib/log-failure";
import { readDraft, saveDraft } from "../../../lib/ticket-drafts";

// loaded when first opened, not with the workspace
const TemplateSendDialog = lazy(() => import("./template-send-dialog").then((m) => ({ default: m.TemplateSendDialog })));

interface Props {
  ticket: Ticket;
  /** A narrow column: the short placeholder. */
  compact: boolean;
  replyTo: Message | null;
  onCancelReply(): void;
  onSent(messages: Message[]): void;
  onTicketReplaced(t: Ticket): void;
}

function readSignOption(): boolean {
  return localStorage.getItem(STORAGE_KEYS.signOption) !== "false";
}

type RecState = "idle" | "recording" | "sending";

/** The input bar (spec 1-core §2): text up to 5 rows, '/' quick replies, attachments, reply, audio, signature. */
export function MessageInput({ ticket, compact, replyTo, onCancelReply, onSent, onTicketReplaced }: Props) {
  const { t } = useTranslation();
  const { me } = useWorkspace();
  const [text, setText] = useState(() => readDraft(ticket.id));
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [sign, setSign] = useState(readSignOption);
  const [active, setActive] = useState(0);
  const [rec, setRec] = useState<RecState>("idle");
  const [seconds, setSeconds] = useState(0);
  const [templateOpen, setTemplateOpen] = useState(false);
  const recording = useRef<Recording | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const signEnabled = (me.company.settings.find((s) => s.key === "signMessages")?.value ?? "enabled") === "enabled";

  useEffect(() => {
    saveDraft(ticket.id, text);
  }, [ticket.id, text]);
  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo]);
  useEffect(() => {
    if (rec !== "recording") return;
    setSeconds(0);
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [rec]);
  useEffect(() => () => recording.current?.cancel(), []);

  const { data: quick } = useQuery({ ...quickMessagesQuery(me.companyId, me.id), enabled: text.startsWith("/") });
  const suggestions = useMemo(() => {
    if (!text.startsWith("/") || text.length <= 1 || text.includes("\n")) return [];
    const q = text.slice(1).toLowerCase();
    return (quick ?? []).filter((m) => m.shortcode.toLowerCase().includes(q) || m.message.toLowerCase().includes(q)).slice(0, 20);
  }, [text, quick]);

  function toggleSign() {
    setSign((s) => {
      localStorage.setItem(STORAGE_KEYS.signOption, String(!s));
      return !s;
    });
  }

  function addFiles(list: FileList | File[] | null) {
    if (!list) return;
    const next = [...files, ...Array.from(list)];
    const total = next.reduce((n, f) => n + f.size, 0);
    if (total > LIMITS.attachmentMaxBytes) {
      toast.error(t("tickets.input.tooLarge"));
      return;
    }
    setFiles(next);
  }

  function handleError(err: unknown) {
    if (err instanceof ApiError && err.code === "ERR_TICKET_USER_MISMATCH" && err.body.ticket && typeof err.body.ticket === "object") {
      onTicketReplaced(err.body.ticket as Ticket);
    }
    toastError(err);
  }

  const useSign = signEnabled && sign;

  async function send() {
    if (sending) return;
    const body = text.trim();
    if (!body && files.length === 0) return;
    setSending(true);
    const keep = { text, files };
    setText("");
    setFiles([]);
    try {
      const quoted = replyTo ? { id: replyTo.id } : null;
      const sent = files.length
        ? await sendMediaMessage(ticket.id, keep.files, body, useSign, replyTo?.id)
        : await sendTextMessage(ticket.id, { body, quotedMsg: quoted, sign: useSign });
      onCancelReply();
      onSent(sent?.messages ?? []);
    } catch (err) {
      setText(keep.text);
      setFiles(keep.files);
      handleError(err);
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  }

  function pick(q: QuickReply) {
    setText(q.message);
    setActive(0);
    inputRef.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    if (suggestions.length) {
      if (e.key === "ArrowDown") {
        e.preventDefault();
        setActive((a) => (a + 1) % suggestions.length);
        return;
      }
      if (e.key === "ArrowUp") {
        e.preventDefault();
        setActive((a) => (a - 1 + suggestions.length) % suggestions.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        const q = suggestions[Math.min(active, suggestions.length - 1)];
        if (q) pick(q);
        return;
      }
    }
    if (e.key === "Escape" && replyTo) onCancelReply();
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  }

  function onPaste(e: ClipboardEvent) {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      addFiles(e.clipboardData.files);
    }
  }

  async function startRec() {
    try {
      recording.current = await startRecording();
      setRec("recording");
    } catch (err) {
      logFailure("starting the voice recording failed", err, { ticketId: ticket.id });
      toast.error(t("tickets.input.micDenied"));
    }
  }

  async function stopRec() {
    const r = recording.current;
    if (!r) return;
    recording.current = null;
    setRec("sending");
    try {
      const mp3 = await r.stop();
      if (mp3.size < LIMITS.audioMinBytes) {
        toast.info(t("tickets.input.audioTooShort"));
        return;
      }
      const file = new File([mp3], `audio-${Date.now()}.mp3`, { type: "audio/mpeg" });
      const sent = await sendMediaMessage(ticket.id, [file], "", false);
      onSent(sent?.messages ?? []);
    } catch (err) {
      handleError(err);
    } finally {
      setRec("idle");
    }
  }

  function cancelRec() {
    recording.current?.cancel();
    recording.current = null;
    setRec("idle");
  }

  const canSend = text.trim().length > 0 || files.length > 0;
  const mmss = `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;

  return (
    <Paper square elevation={0} sx={{ position: "relative", borderTop: 1, borderColor: "divider", px: 1, py: 0.75, bgcolor: "background.default" }}>
      <QuickReplies items={suggestions} active={Math.min(active, Math.max(0, suggestions.length - 1))} onPick={pick} />
      {replyTo && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 0.75, mx: 0.5, p: 1, borderLeft: 4, borderColor: replyTo.fromMe ? "primary.main" : "secondary.main", bgcolor: "action.hover", borderRadius: 1 }} data-testid="reply-preview">
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ fontWeight: 700, color: replyTo.fromMe ? "primary.main" : "secondary.main" }}>
              {replyTo.fromMe ? t("tickets.messages.you") : ticket.contact?.name}
            </Typography>
            <Typography variant="body2" noWrap color="text.secondary">
              {replyTo.body || t(`tickets.media.${replyTo.mediaType}`, { defaultValue: replyTo.mediaType })}
            </Typography>
          </Box>
          <IconButton size="small" onClick={onCancelReply} aria-label={t("tickets.input.cancelReply")}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      {files.length > 0 && (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mb: 0.75, mx: 0.5 }}>
          {files.map((f, i) => (
            <Chip key={`${f.name}-${i}`} size="small" icon={<AttachFileIcon />} label={`${truncate(f.name, 30)} · ${formatBytes(f.size)}`} onDelete={() => setFiles(files.filter((_, j) => j !== i))} />
          ))}
        </Box>
      )}
      {rec === "idle" ? (
        <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
          <input ref={fileRef} type="file" multiple hidden onChange={(e) => { addFiles(e.target.files); e.target.value = ""; }} data-testid="attach-input" />
          <Tooltip title={t("tickets.input.attach")}>
            <IconButton onClick={() => fileRef.current?.click()} aria-label={t("tickets.input.attach")} disabled={sending}>
              <AttachFileIcon />
            </IconButton>
          </Tooltip>
          {ticket.whatsapp?.isOfficial && (
            <>
              <Tooltip title={t("tickets.template.open")}>
                <IconButton onClick={() => setTemplateOpen(true)} aria-label={t("tickets.template.open")} disabled={sending} data-testid="template-open">
                  <ViewQuiltIcon />
                </IconButton>
              </Tooltip>
              {templateOpen && (
                <Suspense fallback={null}>
                  <TemplateSendDialog ticketId={ticket.id} open onClose={() => setTemplateOpen(false)} onSent={(m) => onSent([m])} />
                </Suspense>
              )}
            </>
          )}
          {signEnabled && (
            <Tooltip title={t(sign ? "tickets.input.signOn" : "tickets.input.signOff")}>
              <IconButton onClick={toggleSign} color={sign ? "primary" : "default"} aria-pressed={sign} aria-label={t("tickets.input.sign")} data-testid="sign-toggle">
                <DrawIcon />
              </IconButton>
            </Tooltip>
          )}
          <Box sx={{ flex: 1, bgcolor: "background.paper", borderRadius: 3, px: 1.75, py: 0.9, border: 1, borderColor: "divider", minWidth: 0 }}>
            <InputBase
              inputRef={inputRef}
              fullWidth
              multiline
              maxRows={LIMITS.messageInputMaxRows}
              autoFocus
              placeholder={t(compact ? "tickets.input.placeholderShort" : "tickets.input.placeholder")}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              inputProps={{ "data-testid": "message-input", "aria-label": t("tickets.input.placeholder") }}
              sx={{ fontSize: 15 }}
            />
          </Box>
          {canSend ? (
            <Tooltip title={t("tickets.input.send")}>
              <span>
                <IconButton color="primary" onClick={() => void send()} disabled={sending} aria-label={t("tickets.input.send")} data-testid="send-button">
                  {sending ? <CircularProgress size={22} /> : <SendIcon />}
                </IconButton>
              </span>
            </Tooltip>
          ) : (
            <Tooltip title={t("tickets.input.record")}>
              <IconButton onClick={() => void startRec()} aria-label={t("tickets.input.record")} data-testid="record-button">
                <MicIcon />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ) : (
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, py: 0.5 }} data-testid="recorder">
          {rec === "recording" ? (
            <>
              <Tooltip title={t("tickets.input.cancelRecording")}>
                <IconButton color="error" onClick={cancelRec} aria-label={t("tickets.input.cancelRecording")}>
                  <HighlightOffIcon />
                </IconButton>
              </Tooltip>
              <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: "error.main", animation: "pulse 1s infinite", "@keyframes pulse": { "50%": { opacity: 0.3 } } }} />
              <Typography sx={{ fontVariantNumeric: "tabular-nums", minWidth: 48 }}>{mmss}</Typography>
              <Tooltip title={t("tickets.input.sendRecording")}>
                <IconButton color="success" onClick={() => void stopRec()} aria-label={t("tickets.input.sendRecording")}>
                  <CheckCircleIcon />
                </IconButton>
              </Tooltip>
            </>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary">
                {t("tickets.input.sendingAudio")}
              </Typography>
              <CircularProgress size={22} />
            </>
          )}
        </Box>
      )}
    </Paper>
  );
}
