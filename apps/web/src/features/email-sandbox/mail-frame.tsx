import { Box } from "@mui/material";
import type { SandboxMail } from "@atende/shared";

/**
 * The message's HTML in a sandboxed iframe: no scripts, no same-origin (it cannot touch the app), popups
 * allowed so its links open in a new tab (a <base target="_blank"> is added); its images load, so the
 * open pixel and the click and unsubscribe links hit the real tracking routes.
 */
export function MailFrame({ mail }: { mail: SandboxMail }) {
  if (!mail.html) {
    return (
      <Box component="pre" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", m: 0, p: 2, fontFamily: "inherit" }} data-testid="mail-text">
        {mail.text}
      </Box>
    );
  }
  const doc = `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"></head><body style="margin:12px;font-family:sans-serif;background:#fff;color:#222">${mail.html}</body></html>`;
  return (
    <Box
      component="iframe"
      title={mail.subject}
      data-testid="mail-frame"
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={doc}
      sx={{ width: "100%", height: { xs: 420, md: "calc(100vh - 300px)" }, minHeight: 320, border: 0, bgcolor: "#fff", borderRadius: 1 }}
    />
  );
}
