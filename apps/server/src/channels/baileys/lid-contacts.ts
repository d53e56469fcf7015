import type { Sql } from "../../db/sql.js";

/**
 * A contact first recorded under a LID (no phone number known then) takes its phone number once
 * WhatsApp maps the LID, unless a contact with that number already exists (then both stay as they are
 * and the mapping keeps later messages on the number's contact).
 */
export async function renameLidContact(sql: Sql, companyId: number, lid: string, pn: string): Promise<boolean> {
  const n = await sql.exec(
    `UPDATE contacts SET number = $3, updated_at = now()
      WHERE company_id = $1 AND number = $2 AND NOT is_group
        AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.company_id = $1 AND o.number = $3)`,
    [companyId, lid, pn],
  );
  return n > 0;
}
