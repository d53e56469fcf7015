import { isOwnLinkHost } from "@atende/shared";
import type { FastifyReply, FastifyRequest } from "fastify";

/** HTML-escapes a value placed in the page. */
const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

type Lang = "pt" | "en" | "es";

/** The click page's words (a public page outside the web app, so its texts live here, in the three languages). */
const WORDS: Record<Lang, { htmlLang: string; title: string; lead: (company: string) => string; destination: string; go: string; caution: string }> = {
  pt: {
    htmlLang: "pt-BR",
    title: "Você está saindo para outro site",
    lead: (company) => `Este link foi enviado por <strong>${company}</strong> e leva para:`,
    destination: "Destino",
    go: "Continuar para",
    caution: "Confira o endereço antes de continuar. Não informe senhas ou dados de pagamento se não reconhecer o site.",
  },
  en: {
    htmlLang: "en",
    title: "You are leaving for another site",
    lead: (company) => `This link was sent by <strong>${company}</strong> and leads to:`,
    destination: "Destination",
    go: "Continue to",
    caution: "Check the address before going on. Do not give passwords or payment details if you do not recognise the site.",
  },
  es: {
    htmlLang: "es",
    title: "Está saliendo hacia otro sitio",
    lead: (company) => `Este enlace fue enviado por <strong>${company}</strong> y lleva a:`,
    destination: "Destino",
    go: "Continuar a",
    caution: "Verifique la dirección antes de continuar. No informe contraseñas ni datos de pago si no reconoce el sitio.",
  },
};

/** The first of pt, en, es the Accept-Language header names (pt by default). */
export function clickPageLanguage(acceptLanguage: string | undefined): Lang {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const tag = part.split(";")[0]!.trim().toLowerCase().slice(0, 2);
    if (tag === "pt" || tag === "en" || tag === "es") return tag;
  }
  return "pt";
}

/** The page that names a destination outside the company's own domains, with a link to go on. */
export function clickPage(url: string, company: string, lang: Lang): string {
  const target = new URL(url);
  const w = WORDS[lang];
  const href = escapeHtml(url);
  const host = escapeHtml(target.host);
  return `<!doctype html><html lang="${w.htmlLang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(w.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:520px;margin:48px auto;padding:0 16px;color:#222}.host{font-size:22px;font-weight:700;word-break:break-all}.url{font-family:monospace;font-size:13px;word-break:break-all;color:#555}
a.go{display:inline-block;margin-top:16px;font-size:16px;padding:10px 20px;background:#1565c0;color:#fff;text-decoration:none;border-radius:4px;word-break:break-all}small{display:block;margin-top:24px;color:#666}
@media (prefers-color-scheme: dark){body{background:#121212;color:#eee}.url{color:#bbb}small{color:#aaa}}</style></head><body>
<h1>${escapeHtml(w.title)}</h1><p>${w.lead(escapeHtml(company))}</p>
<p class="host" data-testid="click-destination-host">${host}</p><p class="url"><span>${escapeHtml(w.destination)}:</span> <span data-testid="click-destination">${href}</span></p>
<a class="go" href="${href}" rel="noopener noreferrer nofollow">${escapeHtml(w.go)} ${host}</a><small>${escapeHtml(w.caution)}</small></body></html>`;
}

/**
 * Sends a click on to `url`: straight (302) when its host is one of the company's own domains, else
 * the click page naming it. `url` is already known to be one of the campaign's own URLs.
 */
export function sendClick(request: FastifyRequest, reply: FastifyReply, url: string, company: { name: string; domains: string[] }) {
  void reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer");
  if (isOwnLinkHost(new URL(url).hostname, company.domains)) return reply.redirect(url, 302);
  return reply.type("text/html; charset=utf-8").header("x-robots-tag", "noindex").send(clickPage(url, company.name, clickPageLanguage(request.headers["accept-language"])));
}
