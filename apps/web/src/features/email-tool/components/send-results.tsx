import { Alert, List, ListItem, ListItemText } from "@mui/material";
import { useTranslation } from "react-i18next";

export interface SendResult {
  email: string;
  error: string | null;
}

/** After a send: how many were queued, and each recipient refused with the reason. */
export function SendResults({ results }: { results: SendResult[] }) {
  const { t } = useTranslation();
  const failed = results.filter((r) => r.error !== null);
  const queued = results.length - failed.length;
  return (
    <>
      {queued > 0 && (
        <Alert severity="success" data-testid="send-queued">
          {t("emailTool.send.queued", { count: queued })}
        </Alert>
      )}
      {failed.length > 0 && (
        <Alert severity="error" data-testid="send-failed">
          {t("emailTool.send.failed", { count: failed.length })}
          <List dense disablePadding>
            {failed.map((r) => (
              <ListItem key={r.email} disableGutters>
                <ListItemText primary={r.email} secondary={r.error} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
    </>
  );
}
