import type { Sql } from "../../db/sql.js";
import { AppError } from "../../core/errors.js";

/**
 * ERR_CONTACT_IS_WHATSAPP: the numbers of a company's own connections are never customers. A message
 * from one of them (two connections of the company talking to each other) is ignored, and a ticket
 * or message to one of them is refused.
 */
export async function isConnectionNumber(sql: Sql, companyId: number, number: string): Promise<boolean> {
  if (!number) return false;
  const row = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND number = $2 AND number <> '' LIMIT 1", [companyId, number]);
  return row !== null;
}

export async function assertNotConnectionNumber(sql: Sql, companyId: number, number: string): Promise<void> {
  if (await isConnectionNumber(sql, companyId, number.replace(/\D/g, ""))) {
    throw new AppError("ERR_CONTACT_IS_WHATSAPP", "Não é possível enviar mensagens para um número de conexão");
  }
}
