import { useState } from "react";
import { Box, IconButton, Tooltip } from "@mui/material";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { useTranslation } from "react-i18next";
import { logFailure } from "../../../lib/log-failure";

/** A monospace example with a copy button (the copy confirmation shows for 1 second). */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 1000);
    } catch (err) {
      // no clipboard permission: the text can still be selected by hand
      logFailure("copying the code sample failed", err);
    }
  };
  return (
    <Box sx={{ position: "relative" }}>
      <Box
        component="pre"
        aria-label={label}
        data-testid="code-block"
        sx={{
          m: 0,
          p: 2,
          pr: 6,
          borderRadius: 1,
          overflowX: "auto",
          fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
          fontSize: 13,
          lineHeight: 1.6,
          bgcolor: (theme) => (theme.palette.mode === "dark" ? "#0b1220" : "#0f172a"),
          color: "#e2e8f0",
        }}
      >
        {code}
      </Box>
      <Tooltip title={copied ? t("messagesApi.docs.copied") : t("messagesApi.docs.copy")}>
        <IconButton size="small" aria-label={t("messagesApi.docs.copy")} onClick={() => void copy()} sx={{ position: "absolute", top: 6, right: 6, color: "#cbd5e1" }}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
