import { Fragment, type ReactNode } from "react";

const TOKEN = /(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g;

/** *bold*, _italic_ and ~strike~ as a phone shows them; plain React nodes, never HTML. */
export function WhatsappText({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    const token = m[0];
    if (at > last) out.push(text.slice(last, at));
    const inner = token.slice(1, -1);
    out.push(token[0] === "*" ? <strong key={at}>{inner}</strong> : token[0] === "_" ? <em key={at}>{inner}</em> : <s key={at}>{inner}</s>);
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <Fragment>{out}</Fragment>;
}
