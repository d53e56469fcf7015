import { useState } from "react";
import { Alert, Box, Button, CircularProgress, IconButton, InputAdornment, TextField, Tooltip, Typography } from "@mui/material";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { generateApiToken } from "../api/connections";

interface Props {
  /** The saved connection; null while adding one (a token is generated after saving). */
  connectionId: number | null;
  /** Last characters of the current token, "" when there is none. */
  tokenHint: string;
}

/**
 * The connection's Messages API token. The server generates it and shows it once, here, right after
 * "Generate"; afterwards only its last characters are known. Generating again replaces the token:
 * systems still using the old one stop working, so the button asks first when a token exists.
 */
export function ApiTokenField({ connectionId, tokenHint }: Props) {
  const { t } = useTranslation();
  const [hint, setHint] = useState(tokenHint);
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (connectionId === null) return <Typography variant="body2" color="text.secondary">{t("connections.form.tokenAfterSave")}</Typography>;

  const generate = async () => {
    setBusy(true);
    try {
      const res = await generateApiToken(connectionId);
      setShown(res.token);
      setHint(res.tokenHint);
      setConfirming(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const copy = () => {
    if (!shown) return;
    navigator.clipboard
      .writeText(shown)
      .then(() => toast.success(t("connections.form.tokenCopied"), { autoClose: 2000 }))
      // a browser without clipboard access (plain http): the token stays selectable in the field
      .catch((err: unknown) => toastError(err));
  };

  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid="api-token">
      <Typography variant="subtitle2">{t("connections.form.token")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("connections.form.tokenHelp")}
      </Typography>
      {shown ? (
        <>
          <TextField
            value={shown}
            label={t("connections.form.newToken")}
            slotProps={{
              htmlInput: { readOnly: true, "data-testid": "connection-token", spellCheck: false, style: { fontFamily: "monospace" } },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t("connections.form.copyToken")}>
                      <IconButton aria-label={t("connections.form.copyToken")} onClick={copy} data-testid="copy-token">
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Alert severity="warning">{t("connections.form.tokenShownOnce")}</Alert>
        </>
      ) : (
        <Typography variant="body2" data-testid="token-hint">
          {hint ? t("connections.form.tokenEndsWith", { hint }) : t("connections.form.noToken")}
        </Typography>
      )}
      {confirming ? (
        <Alert
          severity="warning"
          action={
            <Box sx={{ display: "flex", gap: 1 }}>
              <Button color="inherit" size="small" onClick={() => setConfirming(false)} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button color="inherit" size="small" onClick={() => void generate()} disabled={busy} data-testid="confirm-generate-token">
                {t("connections.form.generateToken")}
              </Button>
            </Box>
          }
        >
          {t("connections.form.tokenReplaceWarning")}
        </Alert>
      ) : (
        <Box>
          <Button
            startIcon={busy ? <CircularProgress size={16} /> : <AutorenewIcon />}
            variant="outlined"
            disabled={busy}
            onClick={() => (hint ? setConfirming(true) : void generate())}
            data-testid="generate-token"
          >
            {t("connections.form.generateToken")}
          </Button>
        </Box>
      )}
    </Box>
  );
}
