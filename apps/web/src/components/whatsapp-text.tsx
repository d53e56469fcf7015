import { Fragment, type ReactNode } from "react";
import { Box, Link } from "@mui/material";
import { parseWhatsApp, truncateWhatsApp, type WaNode } from "@atende/shared";

const MONO = { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: "0.92em" };

function render(nodes: WaNode[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.type) {
      case "text":
        return <Fragment key={i}>{n.text}</Fragment>;
      case "bold":
        return <strong key={i}>{render(n.children)}</strong>;
      case "italic":
        return <em key={i}>{render(n.children)}</em>;
      case "strike":
        return <s key={i}>{render(n.children)}</s>;
      case "mono":
        return (
          <Box key={i} component="span" sx={{ ...MONO, whiteSpace: "pre-wrap" }} data-wa="mono">
            {n.text}
          </Box>
        );
      case "code":
        return (
          <Box key={i} component="code" sx={{ ...MONO, bgcolor: "action.selected", borderRadius: 0.5, px: 0.5 }}>
            {n.text}
          </Box>
        );
      case "link":
        return (
          <Link key={i} href={n.href} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-all" }}>
            {n.text}
          </Link>
        );
    }
  });
}

/**
 * A message text with WhatsApp's formatting (*bold*, _italic_, ~strike~, ```monospace```, `code`) and
 * links opening in a new tab. Built as React elements from the parsed tree: markup in the text stays text.
 * `maxChars` cuts the visible text (marks do not count) and ends it with "...".
 */
export function WhatsAppText({ text, maxChars }: { text: string; maxChars?: number }) {
  return <>{render(maxChars === undefined ? parseWhatsApp(text) : truncateWhatsApp(text, maxChars))}</>;
}
