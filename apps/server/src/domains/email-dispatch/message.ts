import { ContentUrls } from "../campaign-links/content-urls.js";
import type { OutgoingMail } from "../email-transport/driver.js";
import { fillPlaceholders, textAlternative, trackHtml, unsubscribeUrl } from "../email-tracking/render.js";
import { signTrackingToken } from "../email-tracking/tokens.js";

export interface CampaignContent {
  id: number;
  companyId: number;
  fromAddress: string;
  subject: string;
  html: string;
  /** The CSV's variable column names, in column order. */
  variables: string[];
}

export interface RecipientToSend {
  id: string;
  email: string;
  variables: string[];
}

export interface MessageSettings {
  /** Where the company's links are served from: `https://{linkHost}`, or PUBLIC_URL (campaign-links/company-links.ts). */
  publicUrl: string;
  appSecret: string;
  /** VERP bounce domain; null → the From address is the envelope sender. */
  bounceDomain: string | null;
}

const domainOf = (address: string) => address.split("@")[1]?.toLowerCase() || "atende.local";

/** The deterministic Message-ID of a recipient row: the same row always names the same message. */
export const campaignMessageId = (campaignId: number, rowId: string, from: string) => `<email-campaign.${campaignId}.${rowId}@${domainOf(from)}>`;

/**
 * One recipient's message: {{columns}} filled (escaped in the HTML), links and pixel tracked, the
 * unsubscribe footer, RFC 8058 one-click headers, a deterministic Message-ID and, with BOUNCE_DOMAIN,
 * a VERP return path `bounces+<signed row token>@domain`.
 */
export function campaignMessage(c: CampaignContent, r: RecipientToSend, s: MessageSettings): OutgoingMail {
  const values = new Map(c.variables.map((name, i) => [name, r.variables[i] ?? ""]));
  const links = { publicUrl: s.publicUrl, appSecret: s.appSecret, companyId: c.companyId, rowId: r.id };
  const html = trackHtml(fillPlaceholders(c.html, values, true), links, ContentUrls.ofHtml(c.html));
  const unsubscribe = unsubscribeUrl(links);
  return {
    companyId: c.companyId,
    from: c.fromAddress,
    to: r.email,
    subject: fillPlaceholders(c.subject, values, false).replace(/[\r\n]+/g, " "),
    html,
    text: textAlternative(fillPlaceholders(c.html, values, true), unsubscribe),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    messageId: campaignMessageId(c.id, r.id, c.fromAddress),
    envelopeFrom: s.bounceDomain ? `bounces+${signTrackingToken(s.appSecret, "b", [c.companyId, r.id])}@${s.bounceDomain}` : undefined,
  };
}
