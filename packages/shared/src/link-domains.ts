/**
 * A company's own domains (the `linkDomains` setting) and the host its campaign links are served
 * from (`linkHost`), docs/settings.md "Campaign links". A click on a tracked or short link whose
 * destination is on one of the company's own domains (or a subdomain of one) goes straight there;
 * any other destination is first shown on a click page naming it.
 */

/** At most this many own domains per company. */
export const LINK_DOMAINS_MAX = 10;

// letters, digits and hyphens per label (an IDN as its xn-- form), at least two labels, a TLD not all digits
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A host name as typed, lower-cased and without a trailing dot; null when it is not a host name. */
export function normalizeHostName(value: string): string | null {
  const host = value.trim().toLowerCase().replace(/\.$/, "");
  return HOST_NAME.test(host) ? host : null;
}

/**
 * `linkDomains` as typed (separated by commas, spaces or new lines) → its host names, lower-cased and
 * each once; "" → none. Null when an entry is not a host name (a URL, a path, an address with a port)
 * or there are more than LINK_DOMAINS_MAX.
 */
export function parseLinkDomains(value: string): string[] | null {
  const entries = value.split(/[\s,;]+/).filter(Boolean);
  const hosts: string[] = [];
  for (const entry of entries) {
    const host = normalizeHostName(entry);
    if (!host) return null;
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts.length > LINK_DOMAINS_MAX ? null : hosts;
}

/** Whether `host` is one of `domains` or a subdomain of one (`loja.com.br` covers `www.loja.com.br`). */
export function isOwnLinkHost(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}
