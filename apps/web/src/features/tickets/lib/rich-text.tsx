import { Fragment, type ReactNode } from "react";
import { Link } from "@mui/material";

/**
 * WhatsApp-style formatting without parsing HTML: *bold*, _italic_, ~strike~, ```mono```, and links
 * opening in a new tab. Returns React nodes, so message text can never inject markup.
 */
const TOKEN = /(```[\s\S]+?```|\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~|https?:\/\/[^\s<]+)/g;

export function richText(text: string): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (token.startsWith("```")) out.push(<code key={key++}>{token.slice(3, -3)}</code>);
    else if (token.startsWith("*")) out.push(<strong key={key++}>{token.slice(1, -1)}</strong>);
    else if (token.startsWith("_")) out.push(<em key={key++}>{token.slice(1, -1)}</em>);
    else if (token.startsWith("~")) out.push(<s key={key++}>{token.slice(1, -1)}</s>);
    else
      out.push(
        <Link key={key++} href={token} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-all" }}>
          {token}
        </Link>,
      );
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <Fragment>{out}</Fragment>;
}
