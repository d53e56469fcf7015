import { useCallback, useMemo, useState } from "react";
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Paper, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, useMediaQuery, type Theme } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { can, canVisit, channel, type Whatsapp, type WhatsappEvent, type WhatsappSessionEvent } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { connectionKeys, connectionsQuery, deleteConnection } from "./api/connections";
import { ConnectionModal } from "./components/connection-modal";
import { ConnectionCard } from "./components/connection-card";
import { ConnectionRow } from "./components/connection-row";
import { QrDialog } from "./components/qr-dialog";
import { duplicatedNumbers } from "./duplicated-numbers";
import { EmptyState, EmptyTableRow } from "../../components/empty-state";

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
  const mayUsePhone = canVisit(me, me.company.plan, "/sandbox");
  // Phone width: cards, so status and session actions need no horizontal scrolling.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));

  const patch = (fn: (l: Whatsapp[]) => Whatsapp[]) => qc.setQueryData<Whatsapp[]>(connectionKeys.list, (old) => (old ? fn(old) : old));
  useSocketEvent<WhatsappEvent>(channel.whatsapp(me.companyId), (d) => {
    if (d.action === "update") {
      const w = d.whatsapp;
      patch((l) => (l.some((x) => x.id === w.id) ? l.map((x) => (x.id === w.id ? w : x)) : [...l, w]));
    } else {
      patch((l) => l.filter((x) => x.id !== d.whatsappId));
      if (d.whatsappId === qrId) setQrId(null);
    }
  });
  useSocketEvent<WhatsappSessionEvent>(channel.whatsappSession(me.companyId), (d) => {
    if (d.action !== "update") return;
    const s = d.session;
    patch((l) => l.map((x) => (x.id === s.id ? { ...x, status: s.status, qrcode: s.qrcode, pairingCode: s.pairingCode } : x)));
    // An empty QR code closes the dialog (connected, or the session stopped); opening and pairing are
    // steps on the way to a code or to the connection, so the dialog shows them instead.
    if (s.id === qrId && !s.qrcode && s.status !== "OPENING" && s.status !== "PAIRING") setQrId(null);
  });

  const duplicated = useMemo(() => duplicatedNumbers(list), [list]);

  async function remove(w: Whatsapp) {
    try {
      await deleteConnection(w.id);
      patch((l) => l.filter((x) => x.id !== w.id));
      toast.success(t("connections.toasts.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  const closeModal = useCallback(() => setModal({ open: false, connection: null }), []);
  const qrConnection = list.find((w) => w.id === qrId) ?? null;
  const columns = mayAct ? 8 : 7;
  const rowProps = {
    mayAct,
    mayEdit,
    mayUsePhone,
    onShowQr: (c: Whatsapp) => setQrId(c.id),
    onEdit: (c: Whatsapp) => setModal({ open: true, connection: c }),
    onDelete: setToDelete,
  };
  return (
    <Box data-testid="connections-page">
      <PageHeading title={t("connections.title")}>
        {mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({ open: true, connection: null })} data-testid="add-connection">
            {t("connections.add")}
          </Button>
        )}
      </PageHeading>
      {duplicated.length > 0 && (
        <Alert severity="error" variant="filled" sx={{ mb: 2 }} data-testid="duplicated-number">
          <AlertTitle>{t("connections.duplicatedTitle", { numbers: duplicated.join(", ") })}</AlertTitle>
          {t("connections.duplicatedNumber")}
        </Alert>
      )}
      {phone ? (
        <Stack spacing={1} data-testid="connection-cards">
          {isLoading && <Skeleton variant="rounded" height={96} />}
          {!isLoading && list.length === 0 && (
            <EmptyState>{t("connections.empty")}</EmptyState>
          )}
          {list.map((w) => (
            <ConnectionCard key={w.id} connection={w} {...rowProps} />
          ))}
        </Stack>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" sx={{ minWidth: 900, "& th, & td": { px: 1.25 } }}>
            <TableHead>
              <TableRow>
                <TableCell>{t("connections.columns.name")}</TableCell>
                <TableCell>{t("connections.columns.provider")}</TableCell>
                <TableCell>{t("connections.columns.number")}</TableCell>
                <TableCell align="center">{t("connections.columns.status")}</TableCell>
                {mayAct && <TableCell align="center">{t("connections.columns.session")}</TableCell>}
                <TableCell align="center" sx={{ width: 120 }}>
                  {t("connections.columns.updatedAt")}
                </TableCell>
                <TableCell align="center">{t("connections.columns.default")}</TableCell>
                <TableCell align="right">{t("connections.columns.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {isLoading && <TableRowsSkeleton columns={columns} />}
              {!isLoading && list.length === 0 && (
                <EmptyTableRow colSpan={columns}>{t("connections.empty")}</EmptyTableRow>
              )}
              {list.map((w) => (
                <ConnectionRow key={w.id} connection={w} {...rowProps} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConnectionModal open={modal.open} connection={modal.connection} onClose={closeModal} onCreated={(w) => mayAct && setQrId(w.id)} />
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
