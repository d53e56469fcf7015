import { normalizeHostName, parseLinkDomains } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface CompanyLinks {
  /** The company's name, shown on the click page. */
  name: string;
  /** Its own domains (`linkDomains`): destinations there skip the click page. */
  domains: string[];
  /** Where its links are served from: `https://{linkHost}`, or PUBLIC_URL without one. */
  base: string;
}

/** The company's campaign-link settings (docs/settings.md "Campaign links"). */
export async function companyLinks(sql: Sql, companyId: number, publicUrl: string): Promise<CompanyLinks> {
  const row = await sql.one<{ name: string; domains: string | null; host: string | null }>(
    `SELECT c.name,
            (SELECT value FROM settings WHERE company_id = c.id AND key = 'linkDomains') AS domains,
            (SELECT value FROM settings WHERE company_id = c.id AND key = 'linkHost') AS host
       FROM companies c WHERE c.id = $1`,
    [companyId],
  );
  // stored values were checked when saved; a value that no longer parses counts as none
  const host = row.host ? normalizeHostName(row.host) : null;
  return {
    name: row.name,
    domains: parseLinkDomains(row.domains ?? "") ?? [],
    base: host ? `https://${host}` : publicUrl.replace(/\/+$/, ""),
  };
}
