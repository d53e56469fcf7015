import { Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { can, type SessionUser } from "@atende/shared";
import { formatDate } from "../../lib/format-date";

/**
 * The translated text with its `<b>…</b>` parts in bold and `{{name}}`/`{{company}}` filled as plain
 * text (never parsed as markup), without react-i18next's Trans and its HTML parser.
 */
function boldParts(text: string, name: string, company: string) {
  const fill = (s: string) => s.replace("\u0001", () => name).replace("\u0002", () => company);
  return text
    .split(/(<b>[^<]*<\/b>)/)
    .filter(Boolean)
    .map((part, i) => (part.startsWith("<b>") ? <strong key={i}>{fill(part.slice(3, -4))}</strong> : fill(part)));
}

/** "Olá {name}, bem-vindo a {company}!" and, for admins, the date the subscription is active until. */
export function Greeting({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const showDue = can(user, "company:dueDateNotice") && !!user.company.dueDate;
  return (
    <Typography variant="body2" noWrap sx={{ flexGrow: 1, minWidth: 0, opacity: 0.95 }} data-testid="greeting">
      {boldParts(t("shell.greeting", { name: "\u0001", company: "\u0002" }), user.name, user.company.name)}
      {showDue && <> {t("shell.activeUntil", { date: formatDate(user.company.dueDate) })}</>}
    </Typography>
  );
}
