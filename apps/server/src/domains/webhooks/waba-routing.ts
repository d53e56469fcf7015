import type { AppContext } from "../../core/context.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import type { WebhookLookups } from "./lookups.js";
import { sameSecret } from "./signature.js";

/**
 * The businesses one entry of a delivery concerns, by the WABA id the entry names (not by the URL the
 * delivery arrived on: Meta sends template and account updates of every WABA of an app to the app's
 * single callback URL). An entry naming the URL's own WABA is the URL's business; one naming another
 * WABA goes to the businesses registered with that WABA whose app secret is the one that signed the
 * delivery (the signature proves the sender holds that secret, so no other app reaches them); an entry
 * of a WABA no such business has is dropped (logged), so it never changes the URL's business.
 */
export async function entryBusinesses(
  ctx: AppContext,
  lookups: WebhookLookups,
  delivering: BusinessSecrets,
  eventId: number,
  entryId: unknown,
): Promise<BusinessSecrets[]> {
  // An entry without an id (never sent by Meta) is kept for the URL's business, as before routing.
  if (entryId === undefined || entryId === null || entryId === "" || String(entryId) === delivering.waba_id) return [delivering];
  const wabaId = String(entryId);
  const owners = (await lookups.businessesOfWaba(wabaId)).filter((b) => sameSecret(b.app_secret, delivering.app_secret));
  if (!owners.length) {
    ctx.log.warn({ eventId, businessId: delivering.id, companyId: delivering.company_id, wabaId }, "webhook entry of a WABA no business of this app has; ignored");
  }
  return owners;
}
