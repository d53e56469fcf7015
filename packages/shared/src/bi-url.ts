import { z } from "zod";

/**
 * Hosts whose dashboards the BI page may embed (the company's biUrl). A leading "*." admits the
 * subdomains of a domain (not the domain itself). Self-hosted tools (Metabase, Superset, Grafana on
 * premises) have no fixed host: an operator lists theirs in BI_ALLOWED_HOSTS (comma separated, same
 * syntax), which the server adds to these.
 */
export const BI_ALLOWED_HOSTS: readonly string[] = [
  "app.powerbi.com", // Power BI (publish to web, secure embed)
  "lookerstudio.google.com", // Looker Studio
  "datastudio.google.com", // Looker Studio's former name, still served
  "public.tableau.com", // Tableau Public
  "*.online.tableau.com", // Tableau Cloud
  "*.metabaseapp.com", // Metabase Cloud
  "*.grafana.net", // Grafana Cloud
];

/** Why a biUrl cannot be embedded, or null when it can. An empty biUrl means "no BI page" and is fine. */
export type BiUrlRefusal = "invalid" | "notHttps" | "hostNotAllowed" | null;

export const BI_URL_MESSAGES: Record<Exclude<BiUrlRefusal, null>, string> = {
  invalid: "biUrl is not a valid URL",
  notHttps: "biUrl must start with https://",
  hostNotAllowed: "biUrl's host is not on the list of allowed BI hosts",
};

/** BI_ALLOWED_HOSTS as an operator writes it ("metabase.acme.com, *.acme.com") → clean host patterns. */
export function parseBiHosts(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(h));
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/**
 * The one BI embed rule, used by the server (company form, GET /bi) and the web (the page renders the
 * iframe only when this says null): https, no user name or password in the URL, and a host on the
 * built-in list or the operator's extra list.
 */
export function biUrlRefusal(url: string, extraHosts: readonly string[] = []): BiUrlRefusal {
  const value = url.trim();
  if (value === "") return null;
  if (!URL.canParse(value)) return "invalid";
  const u = new URL(value);
  if (u.protocol !== "https:") return "notHttps";
  if (u.username || u.password) return "invalid";
  const host = u.hostname.toLowerCase();
  return [...BI_ALLOWED_HOSTS, ...extraHosts].some((p) => hostMatches(host, p)) ? null : "hostNotAllowed";
}

/** GET /bi: the company's biUrl and the operator's extra hosts, for the page to apply biUrlRefusal. */
export const biEmbed = z.object({
  biUrl: z.string().describe("The company's biUrl (empty: no BI page)"),
  extraHosts: z.array(z.string()).describe("BI_ALLOWED_HOSTS of this server, added to BI_ALLOWED_HOSTS"),
});
export type BiEmbed = z.infer<typeof biEmbed>;
