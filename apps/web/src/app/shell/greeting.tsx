import { Typography } from "@mui/material";
import { Trans, useTranslation } from "react-i18next";
import { can, type SessionUser } from "@atende/shared";
import { formatDate } from "../../lib/format-date";

/** "Olá {name}, bem-vindo a {company}!" and, for admins, the date the subscription is active until. */
export function Greeting({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const showDue = can(user, "company:dueDateNotice") && !!user.company.dueDate;
  return (
    <Typography variant="body2" noWrap sx={{ flexGrow: 1, minWidth: 0, opacity: 0.95 }} data-testid="greeting">
      <Trans i18nKey="shell.greeting" values={{ name: user.name, company: user.company.name }} components={{ b: <strong /> }} />
      {showDue && <> {t("shell.activeUntil", { date: formatDate(user.company.dueDate) })}</>}
    </Typography>
  );
}
