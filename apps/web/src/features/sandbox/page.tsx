import { useEffect, useRef, useState } from "react";
import { Link as RouterLink, useParams } from "react-router-dom";
import { Alert, Box, Button, CircularProgress, Paper, Typography } from "@mui/material";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ACK_READ_MIN, channel, type Whatsapp, type WhatsappEvent, type WhatsappSessionEvent } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../../lib/session";
import { useSocketEvent } from "../../lib/use-socket-event";
import { readJson, writeJson } from "../../lib/storage";
import { connectionQuery, markPhoneRead, outboxQuery, sandboxKeys, scan, sendInbound } from "./api/sandbox";
import { CustomerCard, randomNumber, type Customer } from "./components/customer-card";
import { Phone, type Attachment } from "./components/phone";
import { logFailure } from "../../lib/log-failure";

const storageKey = (id: number) => `sandboxCustomer:${id}`;
const recentKey = (id: number) => `sandboxCustomers:${id}`;
/** Customers the tester wrote as on this connection, newest first, to switch back to. */
const RECENT_MAX = 10;

/** /sandbox/{whatsappId}: chat as a customer of a sandbox connection, without a real phone. */
export default function SandboxPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const id = Number(useParams().whatsappId);
  const qc = useQueryClient();
  const { data: connection, error } = useQuery({ ...connectionQuery(id), enabled: Number.isInteger(id) && id > 0 });
  const [customer, setCustomer] = useState<Customer>(() => readJson(storageKey(id), { number: randomNumber(), name: t("sandbox.customer.defaultName") }));
  const number = customer.number.replace(/\D/g, "");
  const outbox = useQuery(outboxQuery(id, number));
  const records = outbox.data ?? [];

  const [recent, setRecent] = useState<Customer[]>(() => readJson<Customer[]>(recentKey(id), []));

  useEffect(() => writeJson(storageKey(id), customer), [id, customer]);
  useEffect(() => {
    // A customer with a usable number joins the recent list (debounced by the typing pause).
    if (number.length < 8) return;
    const timer = setTimeout(() => {
      setRecent((old) => {
        const next = [{ number, name: customer.name }, ...old.filter((c) => c.number !== number)].slice(0, RECENT_MAX);
        writeJson(recentKey(id), next);
        return next;
      });
    }, 600);
    return () => clearTimeout(timer);
  }, [id, number, customer.name]);

  const patch = (fn: (w: Whatsapp) => Whatsapp) => qc.setQueryData<Whatsapp>(sandboxKeys.connection(id), (old) => (old ? fn(old) : old));
  useSocketEvent<WhatsappSessionEvent>(channel.whatsappSession(me.companyId), (d) => {
    if (d.action === "update" && d.session.id === id) patch((w) => ({ ...w, status: d.session.status, qrcode: d.session.qrcode }));
  });
  useSocketEvent<WhatsappEvent>(channel.whatsapp(me.companyId), (d) => {
    if (d.action === "update" && d.whatsapp.id === id) qc.setQueryData(sandboxKeys.connection(id), d.whatsapp);
  });
  useSocketEvent(channel.appMessage(me.companyId), () => void qc.invalidateQueries({ queryKey: sandboxKeys.outbox(id, number) }));

  // The customer "reads" the agent's messages while this page is visible.
  const lastRead = useRef<number>(0);
  const unreadOutbound = records.filter((r) => r.direction === "outbound" && r.ack < ACK_READ_MIN && !r.isDeleted);
  const newestUnread = unreadOutbound[unreadOutbound.length - 1]?.id ?? 0;
  useEffect(() => {
    if (!newestUnread || newestUnread === lastRead.current || document.visibilityState !== "visible") return;
    lastRead.current = newestUnread;
    markPhoneRead(id, number)
      .then(() => qc.invalidateQueries({ queryKey: sandboxKeys.outbox(id, number) }))
      .catch((err: unknown) => {
        // tried again on the next change of the unread messages
        logFailure("marking the sandbox phone's messages read failed", err, { whatsappId: id, number });
        lastRead.current = 0;
      });
  }, [newestUnread, id, number, qc]);

  async function doScan() {
    const session = await scan(id);
    patch((w) => ({ ...w, status: session.status, qrcode: session.qrcode }));
  }

  async function send(body: string, file: Attachment | null) {
    await sendInbound(id, {
      number,
      name: customer.name.trim(),
      body,
      ...(file ? { mediaType: file.mediaType, mediaBase64: file.base64, mediaName: file.name, mimetype: file.mimetype } : {}),
    });
    await qc.invalidateQueries({ queryKey: sandboxKeys.outbox(id, number) });
  }

  if (error) {
    return (
      <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2 }}>
        <Alert severity="error" action={<Button component={RouterLink} to="/connections">{t("sandbox.back")}</Button>}>
          {t("sandbox.notFound")}
        </Alert>
      </Box>
    );
  }
  if (!connection) {
    return (
      <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center" }}>
        <CircularProgress />
      </Box>
    );
  }
  const isSandbox = connection.provider === "sandbox";

  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default", display: "flex", flexDirection: { xs: "column", sm: "row" }, alignItems: { xs: "stretch", sm: "center" }, justifyContent: "center", gap: { xs: 0, sm: 4 }, p: { xs: 0, sm: 3 } }}>
      <Box sx={{ width: { xs: "100%", sm: 320 }, display: "grid", gap: 2, p: { xs: 1.5, sm: 0 }, alignSelf: { sm: "center" } }}>
        <Box>
          <Button component={RouterLink} to="/connections" startIcon={<ArrowBackIcon />} size="small">
            {t("sandbox.back")}
          </Button>
          <Typography variant="h5" sx={{ fontWeight: 700, mt: 1 }}>
            {t("sandbox.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("sandbox.subtitle")}
          </Typography>
        </Box>
        {!isSandbox && <Alert severity="warning">{t("sandbox.notSandbox")}</Alert>}
        <CustomerCard value={customer} recent={recent} onChange={setCustomer} />
        <Paper sx={{ p: 2, display: { xs: "none", sm: "block" } }}>
          <Typography variant="subtitle2" gutterBottom>
            {t("sandbox.tips.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary" component="ul" sx={{ pl: 2, m: 0, "& li": { mb: 0.5 } }}>
            <li>{t("sandbox.tips.one")}</li>
            <li>{t("sandbox.tips.two")}</li>
            <li>{t("sandbox.tips.three")}</li>
          </Typography>
        </Paper>
      </Box>
      <Phone connection={connection} records={records} loading={outbox.isLoading} canWrite={isSandbox && connection.status === "CONNECTED" && number.length >= 8} onScan={doScan} onSend={send} />
    </Box>
  );
}
