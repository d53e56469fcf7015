import type { ReactNode } from "react";
import { Box, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { EXTERNAL_API_BAD_TOKENS_PER_MINUTE, EXTERNAL_API_RATE_PER_MINUTE } from "@atende/shared";
import { API_BASE } from "../../../lib/api";
import { SEND_PATH } from "../api/send-message";
import { CodeBlock } from "./code-block";

/** The refusals of POST /api/messages/send (apps/server/src/domains/external-api) with their HTTP status. */
export const SEND_ERRORS: [number, string][] = [
  [401, "ERR_SESSION_EXPIRED"],
  [401, "ERR_SUBSCRIPTION_EXPIRED"],
  [403, "ERR_PLAN_FEATURE_DISABLED"],
  [400, "ERR_VALIDATION"],
  [400, "ERR_WAPP_INVALID_CONTACT"],
  [400, "ERR_CONTACT_IS_WHATSAPP"],
  [400, "ERR_WAPP_CHECK_CONTACT"],
  [400, "ERR_WPP_OFFICIAL_SESSION_EXPIRED"],
  [404, "ERR_NO_WAPP_FOUND"],
  [409, "ERR_WAPP_NOT_INITIALIZED"],
  [413, "ERR_PAYLOAD_TOO_LARGE"],
  [502, "ERR_SENDING_WAPP_MSG"],
  [429, "ERR_TOO_MANY_REQUESTS"],
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 1.25, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ fontSize: "1.05rem", fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function FieldsTable({ rows }: { rows: [string, string][] }) {
  const { t } = useTranslation();
  return (
    <Table size="small" aria-label={t("messagesApi.docs.fields")}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: 120 }}>{t("messagesApi.docs.field")}</TableCell>
          <TableCell>{t("messagesApi.docs.description")}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(([name, text]) => (
          <TableRow key={name}>
            <TableCell sx={{ fontFamily: "monospace" }}>{name}</TableCell>
            <TableCell>{text}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The documentation half of the Messages API page (2-administration §2, §7), with this server's address. */
export function ApiDocs() {
  const { t } = useTranslation();
  const url = `${window.location.origin}${API_BASE}${SEND_PATH}`;
  const token = t("messagesApi.docs.tokenPlaceholder");
  const curlText = [
    `curl -X POST "${url}" \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"number": "5511999999999", "body": "Olá! Seu pedido foi enviado."}'`,
  ].join("\n");
  const curlMedia = [
    `curl -X POST "${url}" \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -F "number=5511999999999" \\`,
    `  -F "body=Segue o boleto" \\`,
    `  -F "medias=@/caminho/boleto.pdf"`,
  ].join("\n");
  const response = JSON.stringify(
    { message: "Mensagem enviada", ticketId: 123, contactId: 45, messages: [{ id: 678, body: "Olá! Seu pedido foi enviado.", fromMe: true, mediaType: "chat", "...": "..." }] },
    null,
    2,
  );
  const error = JSON.stringify({ error: "ERR_WAPP_INVALID_CONTACT", message: "Digite um número de telefone válido" }, null, 2);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 3, minWidth: 0 }} data-testid="api-docs">
      <Typography color="text.secondary">{t("messagesApi.intro")}</Typography>
      <Section title={t("messagesApi.docs.endpoint")}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", minWidth: 0 }}>
          <Chip label="POST" color="success" size="small" sx={{ fontWeight: 700 }} />
          <Typography component="code" sx={{ fontFamily: "monospace", wordBreak: "break-all" }} data-testid="api-url">
            {url}
          </Typography>
        </Box>
      </Section>
      <Section title={t("messagesApi.docs.auth")}>
        <Typography variant="body2">{t("messagesApi.docs.authText")}</Typography>
        <CodeBlock label={t("messagesApi.docs.auth")} code={`Authorization: Bearer ${token}`} />
      </Section>
      <Section title={t("messagesApi.docs.textTitle")}>
        <Typography variant="body2">{t("messagesApi.docs.textText")}</Typography>
        <FieldsTable
          rows={[
            ["number", t("messagesApi.docs.numberField")],
            ["body", t("messagesApi.docs.bodyField")],
          ]}
        />
        <CodeBlock label={t("messagesApi.docs.textTitle")} code={curlText} />
      </Section>
      <Section title={t("messagesApi.docs.mediaTitle")}>
        <Typography variant="body2">{t("messagesApi.docs.mediaText")}</Typography>
        <FieldsTable
          rows={[
            ["number", t("messagesApi.docs.numberField")],
            ["medias", t("messagesApi.docs.mediasField")],
            ["body", t("messagesApi.docs.bodyField")],
          ]}
        />
        <CodeBlock label={t("messagesApi.docs.mediaTitle")} code={curlMedia} />
      </Section>
      <Section title={t("messagesApi.docs.responseTitle")}>
        <Typography variant="body2">{t("messagesApi.docs.responseText")}</Typography>
        <CodeBlock label={t("messagesApi.docs.responseTitle")} code={response} />
        <Typography variant="body2" color="text.secondary">
          {t("messagesApi.docs.limits", { count: EXTERNAL_API_RATE_PER_MINUTE, bad: EXTERNAL_API_BAD_TOKENS_PER_MINUTE })}
        </Typography>
      </Section>
      <Section title={t("messagesApi.docs.errorsTitle")}>
        <Typography variant="body2">{t("messagesApi.docs.errorsText")}</Typography>
        <CodeBlock label={t("messagesApi.docs.errorsTitle")} code={error} />
        <Box sx={{ overflowX: "auto" }}>
          <Table size="small" aria-label={t("messagesApi.docs.errorsTitle")}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 64 }}>{t("messagesApi.docs.status")}</TableCell>
                <TableCell>{t("messagesApi.docs.code")}</TableCell>
                <TableCell>{t("messagesApi.docs.description")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {SEND_ERRORS.map(([status, code]) => (
                <TableRow key={code}>
                  <TableCell>{status}</TableCell>
                  <TableCell sx={{ fontFamily: "monospace", whiteSpace: { xs: "normal", sm: "nowrap" }, wordBreak: "break-all" }}>{code}</TableCell>
                  <TableCell>{t(`messagesApi.errors.${code}`)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Section>
    </Paper>
  );
}
