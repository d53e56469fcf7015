import type { Sql } from "../../db/sql.js";

export interface CostCenterRow {
  id: number;
  name: string;
}

/** A page of the company's cost centers by name (contains, case-insensitive) and the total. */
export async function listCostCenters(sql: Sql, companyId: number, f: { name: string; limit: number; offset: number }) {
  const like = f.name ? `%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const [rows, total] = await Promise.all([
    sql.many<CostCenterRow>(
      `SELECT id, name FROM cost_centers WHERE company_id = $1 AND ($2::text IS NULL OR name ILIKE $2)
        ORDER BY lower(name), id LIMIT $3 OFFSET $4`,
      [companyId, like, f.limit, f.offset],
    ),
    sql.one<{ n: number }>("SELECT count(*)::int AS n FROM cost_centers WHERE company_id = $1 AND ($2::text IS NULL OR name ILIKE $2)", [companyId, like]),
  ]);
  return { rows, count: total.n };
}

export function findCostCenter(sql: Sql, companyId: number, id: number) {
  return sql.maybe<CostCenterRow>("SELECT id, name FROM cost_centers WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function insertCostCenter(sql: Sql, companyId: number, name: string) {
  return sql.one<CostCenterRow>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id, name", [companyId, name]);
}

export function updateCostCenter(sql: Sql, companyId: number, id: number, name: string) {
  return sql.maybe<CostCenterRow>(
    "UPDATE cost_centers SET name = $3, updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING id, name",
    [companyId, id, name],
  );
}
