import type { Sql } from "../../db/sql.js";
import { AppError } from "../../core/errors.js";
import { isWhatsappUserId } from "@atende/shared";
import { contactKeys } from "../../core/phone.js";

/**
 * ERR_CONTACT_IS_WHATSAPP: the numbers of a company's own connections are never customers. A message
 * from one of them (two connections of the company talking to each other) is ignored, and a ticket
 * or message to one of them is refused.
 */
export async function isConnectionNumber(sql: Sql, companyId: number, number: string): Promise<boolean> {
  if (!number || isWhatsappUserId(number)) return false;
  const row = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND number = ANY($2::text[]) AND number <> '' LIMIT 1", [
    companyId,
    contactKeys(number),
  ]);
  return row !== null;
}

export async function assertNotConnectionNumber(sql: Sql, companyId: number, number: string): Promise<void> {
  if (await isConnectionNumber(sql, companyId, number)) {
    throw new AppError("ERR_CONTACT_IS_WHATSAPP", "Não é possível enviar mensagens para um número de conexão");
  }
}
