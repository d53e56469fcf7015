import { createHmac } from "node:crypto";
import { PAY_LINK_PATH, PAY_LINK_TTL_DAYS } from "@atende/shared";
import { jwtVerify, SignJWT } from "jose";
import { AppError } from "../../core/errors.js";

/** What a pay link names: one invoice of one company. */
export interface PayLinkClaims {
  companyId: number;
  invoiceId: number;
}

const PURPOSE = "invoice-pay";

/**
 * The pay link's own key, derived from the server secret: an access token (signed with the secret
 * itself) never verifies as a pay link, nor a pay link as an access token.
 */
function keyOf(secret: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", secret).update("atende:invoice-pay-link:v1").digest());
}

/**
 * A signed token (JWT, HS256) naming the company and the invoice, valid until PAY_LINK_TTL_DAYS after
 * the later of now and the invoice's due date: the link in the refusal of a login after the due date
 * and in the invoice e-mails, to pay without logging in (no session is ever made from it).
 */
export async function signPayLink(secret: string, claims: PayLinkClaims, dueDate: string, now = new Date()): Promise<string> {
  const from = Math.max(now.getTime(), Date.parse(`${dueDate}T23:59:59Z`));
  return new SignJWT({ typ: PURPOSE, cid: claims.companyId, inv: claims.invoiceId })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(from / 1000) + PAY_LINK_TTL_DAYS * 86_400)
    .sign(keyOf(secret));
}

/** The claims of a valid pay link; a forged, altered or expired token is ERR_PAY_LINK_INVALID. */
export async function verifyPayLink(secret: string, token: string): Promise<PayLinkClaims> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), { algorithms: ["HS256"], requiredClaims: ["exp", "cid", "inv"] }));
  } catch {
    throw payLinkInvalid();
  }
  const companyId = Number(payload.cid);
  const invoiceId = Number(payload.inv);
  if (payload.typ !== PURPOSE || !Number.isInteger(companyId) || !Number.isInteger(invoiceId)) throw payLinkInvalid();
  return { companyId, invoiceId };
}

export const payLinkInvalid = () => new AppError("ERR_PAY_LINK_INVALID", "Link de pagamento inválido ou expirado");

export function payLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${PAY_LINK_PATH}/${token}`;
}
