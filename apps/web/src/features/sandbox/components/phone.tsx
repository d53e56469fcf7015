import { Fragment, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { Alert, Avatar, Box, Button, Chip, CircularProgress, IconButton, InputBase, Typography, useTheme } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import QrCodeScannerIcon from "@mui/icons-material/QrCodeScanner";
import SendIcon from "@mui/icons-material/Send";
import StorefrontIcon from "@mui/icons-material/Storefront";
import { LIMITS, type MediaType, type SandboxOutboxItem, type Whatsapp } from "@atende/shared";
import { format, isSameDay, isToday, isYesterday, parseISO } from "date-fns";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { Ticks } from "./ticks";
import { WhatsappText } from "./whatsapp-text";

export interface Attachment {
  base64: string;
  name: string;
  mimetype: string;
  mediaType: MediaType;
}

interface Props {
  connection: Whatsapp;
  records: SandboxOutboxItem[];
  loading: boolean;
  canWrite: boolean;
  onScan(): Promise<void>;
  onSend(body: string, file: Attachment | null): Promise<void>;
}

function mediaTypeOf(mime: string): MediaType {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "application";
}

function readFile(file: File): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ base64: url.slice(url.indexOf(",") + 1), name: file.name, mimetype: file.type || "application/octet-stream", mediaType: mediaTypeOf(file.type) });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A phone-like chat where a person plays the customer of a sandbox connection. */
export function Phone({ connection, records, loading, canWrite, onScan, onSend }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const [text, setText] = useState("");
  const [file, setFile] = useState<Attachment | null>(null);
  const [busy, setBusy] = useState(false);
  const [scanning, setScanning] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const connected = connection.status === "CONNECTED";
  const lastId = records[records.length - 1]?.id;
  const dayText = (iso: string) => {
    const d = parseISO(iso);
    return isToday(d) ? t("sandbox.phone.today") : isYesterday(d) ? t("sandbox.phone.yesterday") : format(d, "dd/MM/yyyy");
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId]);
  useEffect(() => {
    if (connected) setScanning(false);
  }, [connected]);

  async function send() {
    const body = text.trim();
    if ((!body && !file) || busy) return;
    setBusy(true);
    try {
      await onSend(body, file);
      setText("");
      setFile(null);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  async function pick(f: File | undefined) {
    if (!f) return;
    if (f.size > LIMITS.attachmentMaxBytes) {
      toast.error(t("sandbox.phone.tooLarge"));
      return;
    }
    setFile(await readFile(f));
  }

  function onKey(e: KeyboardEvent) {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  }

  async function scan() {
    setScanning(true);
    try {
      await onScan();
    } catch (err) {
      setScanning(false);
      toastError(err);
    }
  }

  return (
    <Box
      sx={{
        width: { xs: "100%", sm: 390 },
        height: { xs: "100dvh", sm: 780 },
        maxHeight: { sm: "calc(100dvh - 48px)" },
        borderRadius: { xs: 0, sm: 6 },
        border: { xs: 0, sm: 10 },
        borderColor: { sm: "#111" },
        overflow: "hidden",
        display: "flex",
        flexDirection: "column",
        boxShadow: { sm: 12 },
        bgcolor: dark ? "#0b141a" : "#efeae2",
      }}
      data-testid="sandbox-phone"
    >
      <Box sx={{ bgcolor: dark ? "#202c33" : "#008069", color: "#fff", px: 1.5, py: 1.25, display: "flex", alignItems: "center", gap: 1.25 }}>
        <Avatar sx={{ bgcolor: "rgba(255,255,255,.25)", width: 38, height: 38 }}>
          <StorefrontIcon />
        </Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography noWrap sx={{ fontWeight: 600, lineHeight: 1.2 }}>
            {connection.name}
          </Typography>
          <Typography variant="caption" sx={{ opacity: 0.85 }} data-testid="phone-status">
            {connected ? t("sandbox.phone.online") : t(`sandbox.status.${connection.status}`)}
          </Typography>
        </Box>
      </Box>
      {!connected && (
        <Alert
          severity="warning"
          square
          action={
            <Button color="inherit" size="small" startIcon={scanning ? <CircularProgress size={14} color="inherit" /> : <QrCodeScannerIcon />} onClick={() => void scan()} disabled={scanning} data-testid="scan-button">
              {t("sandbox.phone.scan")}
            </Button>
          }
          sx={{ borderRadius: 0, alignItems: "center" }}
        >
          {t("sandbox.phone.notConnected")}
        </Alert>
      )}
      <Box ref={scroller} sx={{ flex: 1, overflowY: "auto", px: 1.25, py: 1 }} data-testid="phone-messages">
        {loading && records.length === 0 && <CircularProgress size={24} sx={{ display: "block", mx: "auto", mt: 4 }} />}
        {!loading && records.length === 0 && (
          <Box sx={{ mt: 4, mx: "auto", maxWidth: 260, textAlign: "center", bgcolor: dark ? "#182229" : "#fff7d6", borderRadius: 2, p: 1.5, fontSize: 13, color: "text.secondary" }}>
            {t("sandbox.phone.empty")}
          </Box>
        )}
        {records.map((r, i) => {
          const mine = r.direction === "inbound";
          const prev = records[i - 1];
          const newDay = !prev || !isSameDay(parseISO(prev.createdAt), parseISO(r.createdAt));
          return (
            <Fragment key={r.id}>
              {newDay && (
                <Box sx={{ display: "flex", justifyContent: "center", my: 1 }}>
                  <Chip size="small" label={dayText(r.createdAt)} sx={{ bgcolor: "background.paper", fontSize: 11 }} />
                </Box>
              )}
              <Box sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", my: 0.4 }} data-testid="phone-message" data-direction={r.direction}>
                <Box
                  sx={{
                    maxWidth: "82%",
                    bgcolor: mine ? (dark ? "#005c4b" : "#d9fdd3") : dark ? "#202c33" : "#fff",
                    borderRadius: 2,
                    px: 1.25,
                    pt: 0.75,
                    pb: 0.5,
                    boxShadow: "0 1px 0.5px rgba(0,0,0,.13)",
                  }}
                >
                  {r.mediaType !== "chat" && (
                    <Box sx={{ display: "flex", alignItems: "center", gap: 0.75, color: "text.secondary", mb: r.body ? 0.5 : 0 }}>
                      <InsertDriveFileIcon fontSize="small" />
                      <Typography variant="body2">{r.mediaName ?? t(`sandbox.media.${r.mediaType}`, { defaultValue: r.mediaType })}</Typography>
                    </Box>
                  )}
                  {r.isDeleted ? (
                    <Typography variant="body2" sx={{ fontStyle: "italic", color: "text.secondary" }}>
                      {t("sandbox.phone.deleted")}
                    </Typography>
                  ) : (
                    r.body && (
                      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", fontSize: 14.2 }} data-testid="phone-message-body">
                        <WhatsappText text={r.body} />
                      </Typography>
                    )
                  )}
                  <Box sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11 }}>
                      {format(parseISO(r.createdAt), "HH:mm")}
                    </Typography>
                    <Ticks ack={r.ack} />
                  </Box>
                </Box>
              </Box>
            </Fragment>
          );
        })}
      </Box>
      {file && (
        <Box sx={{ px: 1.25, pt: 0.75 }}>
          <Chip size="small" icon={<AttachFileIcon />} label={file.name} onDelete={() => setFile(null)} />
        </Box>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5, p: 1 }}>
        <input ref={fileRef} type="file" hidden onChange={(e) => { void pick(e.target.files?.[0]); e.target.value = ""; }} />
        <Box sx={{ flex: 1, display: "flex", alignItems: "flex-end", bgcolor: dark ? "#2a3942" : "#fff", borderRadius: 5, pl: 2, pr: 0.5, py: 0.5 }}>
          <InputBase
            fullWidth
            multiline
            maxRows={5}
            placeholder={t("sandbox.phone.placeholder")}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
            disabled={!canWrite}
            inputProps={{ "data-testid": "phone-input", "aria-label": t("sandbox.phone.placeholder") }}
            sx={{ py: 0.75, fontSize: 15 }}
          />
          <IconButton size="small" onClick={() => fileRef.current?.click()} disabled={!canWrite} aria-label={t("sandbox.phone.attach")}>
            <AttachFileIcon fontSize="small" />
          </IconButton>
        </Box>
        <IconButton
          onClick={() => void send()}
          disabled={!canWrite || busy || (!text.trim() && !file)}
          aria-label={t("sandbox.phone.send")}
          data-testid="phone-send"
          sx={{ bgcolor: "#00a884", color: "#fff", width: 44, height: 44, "&:hover": { bgcolor: "#019273" }, "&.Mui-disabled": { bgcolor: "#00a88480", color: "#fff" } }}
        >
          {busy ? <CircularProgress size={20} color="inherit" /> : <SendIcon fontSize="small" />}
        </IconButton>
      </Box>
    </Box>
  );
}
