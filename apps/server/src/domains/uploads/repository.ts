import type { Sql } from "../../db/sql.js";

export interface UploadRow {
  id: string;
  company_id: number;
  storage_key: string;
  file_name: string;
  mimetype: string;
  size: number;
  created_at: Date;
}

export function insertUpload(sql: Sql, companyId: number, o: { storageKey: string; fileName: string; mimetype: string; size: number; userId: number }): Promise<UploadRow> {
  return sql.one<UploadRow>(
    `INSERT INTO uploads (company_id, storage_key, file_name, mimetype, size, user_id) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id::text, company_id, storage_key, file_name, mimetype, size, created_at`,
    [companyId, o.storageKey, o.fileName, o.mimetype, o.size, o.userId],
  );
}

/** One company's upload; another company's id is not found. */
export function findUpload(sql: Sql, companyId: number, id: number): Promise<UploadRow | null> {
  return sql.maybe<UploadRow>(
    "SELECT id::text, company_id, storage_key, file_name, mimetype, size, created_at FROM uploads WHERE company_id = $1 AND id = $2",
    [companyId, id],
  );
}
