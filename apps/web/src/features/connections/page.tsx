import { useMemo, useState } from "react";
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { can, channel, type Whatsapp, type WhatsappEvent, type WhatsappSessionEvent } from "@atende/shared";
import { format, parseISO } from "date-fns";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { useCurrentUser } from "../auth/session";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { connectionKeys, connectionsQuery, deleteConnection } from "./api/connections";
import { ConnectionModal } from "./components/connection-modal";
import { QrDialog } from "./components/qr-dialog";
import { SessionButtons } from "./components/session-buttons";
import { StatusIcon } from "./components/status-icon";

/** /connections (spec 1-core §2 Connections page): the company's WhatsApp connections, live. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const qc = useQueryClient();
  const { data, isLoading } = useQuery(connectionsQuery());
  const [modal, setModal] = useState<{ open: boolean; connection: Whatsapp | null }>({ open: false, connection: null });
  const [qrId, setQrId] = useState<number | null>(null);
  const [toDelete, setToDelete] = useState<Whatsapp | null>(null);
  const list = useMemo(() => data ?? [], [data]);
  const mayAdd = can(me, "connections-page:addConnection");
  const mayAct = can(me, "connections-page:actionButtons");
  const mayEdit = can(me, "connections-page:editOrDeleteConnection");

  const patch = (fn: (l: Whatsapp[]) => Whatsapp[]) => qc.setQueryData<Whatsapp[]>(connectionKeys.list, (old) => (old ? fn(old) : old));
  useSocketEvent<WhatsappEvent>(channel.whatsapp(me.companyId), (d) => {
    if (d.action === "update") {
      const w = d.whatsapp;
      patch((l) => (l.some((x) => x.id === w.id) ? l.map((x) => (x.id === w.id ? w : x)) : [...l, w]));
    } else patch((l) => l.filter((x) => x.id !== d.whatsappId));
  });
  useSocketEvent<WhatsappSessionEvent>(channel.whatsappSession(me.companyId), (d) => {
    if (d.action !== "update") return;
    const s = d.session;
    patch((l) => l.map((x) => (x.id === s.id ? { ...x, status: s.status, qrcode: s.qrcode } : x)));
    // An empty QR code (connected, or the session stopped) closes the dialog.
    if (s.id === qrId && !s.qrcode) setQrId(null);
  });

  // Several connected sessions on one number cause sync problems and duplicated tickets.
  const duplicated = useMemo(() => {
    const seen = new Map<string, number>();
    for (const w of list) {
      const n = w.number || w.phoneNumberStr;
      if (w.status === "CONNECTED" && n) seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    return [...seen.values()].some((c) => c > 1);
  }, [list]);

  async function remove(w: Whatsapp) {
    try {
      await deleteConnection(w.id);
      patch((l) => l.filter((x) => x.id !== w.id));
      toast.success(t("connections.toasts.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  const qrConnection = list.find((w) => w.id === qrId) ?? null;
  return (
    <Box sx={{ display: "grid", gap: 2 }} data-testid="connections-page">
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Typography variant="h5" sx={{ fontWeight: 600, flex: 1 }}>
          {t("connections.title")}
        </Typography>
        {mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({ open: true, connection: null })} data-testid="add-connection">
            {t("connections.add")}
          </Button>
        )}
      </Box>
      {duplicated && (
        <Alert severity="error" variant="filled" data-testid="duplicated-number">
          {t("connections.duplicatedNumber")}
        </Alert>
      )}
      <TableContainer component={Paper}>
        <Table size="small" sx={{ minWidth: 760 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t("connections.columns.name")}</TableCell>
              <TableCell>{t("connections.columns.number")}</TableCell>
              <TableCell align="center">{t("connections.columns.status")}</TableCell>
              {mayAct && <TableCell align="center">{t("connections.columns.session")}</TableCell>}
              <TableCell align="center">{t("connections.columns.updatedAt")}</TableCell>
              <TableCell align="center">{t("connections.columns.default")}</TableCell>
              <TableCell align="right">{t("connections.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {isLoading &&
              [0, 1, 2].map((i) => (
                <TableRow key={i}>
                  {Array.from({ length: mayAct ? 7 : 6 }, (_, j) => (
                    <TableCell key={j}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {!isLoading && list.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} align="center" sx={{ py: 6, color: "text.secondary" }}>
                  {t("connections.empty")}
                </TableCell>
              </TableRow>
            )}
            {list.map((w) => (
              <TableRow key={w.id} hover data-testid="connection-row" data-connection-id={w.id}>
                <TableCell>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {w.name}
                    </Typography>
                    <Chip size="small" label={t(`connections.providers.${w.provider}`)} variant="outlined" sx={{ height: 20, fontSize: 11 }} />
                  </Box>
                </TableCell>
                <TableCell>{w.phoneNumberStr || w.number || "—"}</TableCell>
                <TableCell align="center">
                  <StatusIcon status={w.status} />
                </TableCell>
                {mayAct && (
                  <TableCell align="center">
                    <SessionButtons connection={w} onShowQr={(c) => setQrId(c.id)} />
                  </TableCell>
                )}
                <TableCell align="center">{format(parseISO(w.updatedAt), "dd/MM/yy HH:mm")}</TableCell>
                <TableCell align="center">{w.isDefault && <CheckCircleIcon sx={{ color: "success.main" }} titleAccess={t("connections.columns.default")} data-testid="default-mark" />}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {w.provider === "sandbox" && (
                    <Tooltip title={t("connections.openPhone")}>
                      <IconButton component="a" href={`/sandbox/${w.id}`} target="_blank" rel="noopener" aria-label={t("connections.openPhone")} data-testid="open-phone">
                        <PhoneIphoneIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  {mayEdit && (
                    <>
                      <Tooltip title={t("common.edit")}>
                        <IconButton onClick={() => setModal({ open: true, connection: w })} aria-label={t("common.edit")} data-testid="edit-connection">
                          <EditIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t("common.delete")}>
                        <IconButton onClick={() => setToDelete(w)} aria-label={t("common.delete")} data-testid="delete-connection">
                          <DeleteOutlineIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ConnectionModal open={modal.open} connection={modal.connection} onClose={() => setModal({ open: false, connection: null })} onCreated={(w) => mayAct && setQrId(w.id)} />
      <QrDialog connection={qrConnection} onClose={() => setQrId(null)} />
      <DeleteDialog connection={toDelete} onClose={() => setToDelete(null)} onConfirm={(w) => void remove(w)} />
    </Box>
  );
}

function DeleteDialog({ connection, onClose, onConfirm }: { connection: Whatsapp | null; onClose(): void; onConfirm(w: Whatsapp): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={Boolean(connection)} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t("connections.deleteTitle", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t("connections.deleteText")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          color="error"
          variant="contained"
          data-testid="confirm-delete"
          onClick={() => {
            if (connection) onConfirm(connection);
            onClose();
          }}
        >
          {t("common.delete")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
