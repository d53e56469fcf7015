import { TtlCache } from "../../core/ttl-cache.js";
import type { Sql } from "../../db/sql.js";
import * as businessRepo from "../businesses/repository.js";
import type { SecretSealer } from "../../core/secrets/sealer.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import * as officialRepo from "../official-whatsapp/repository.js";

/** How long a business's secrets and a phone number's connection are reused (a change applies after this). */
const TTL_MS = 5_000;

/**
 * The rows every delivery of a busy number needs, read once per few seconds per process instead of
 * once per delivery: the business's secrets (the POST checks the signature with them) and which
 * connection a phone number id belongs to. A number not found is not remembered (it may be synced a
 * moment later).
 */
export class WebhookLookups {
  private readonly secrets = new TtlCache<number, BusinessSecrets | null>(TTL_MS);
  private readonly wabas = new TtlCache<string, BusinessSecrets[]>(TTL_MS);
  private readonly numbers = new TtlCache<string, { id: number; whatsapp_id: number } | null>(TTL_MS);

  constructor(
    private readonly sql: Sql,
    private readonly sealer: SecretSealer,
  ) {}

  /** The business of a webhook URL (not scoped by a session: Meta calls it). */
  business(id: number): Promise<BusinessSecrets | null> {
    return this.secrets.get(id, () => businessRepo.findSecretsForWebhook(this.sql, this.sealer, id));
  }

  /** The businesses registered with a WABA id (any company; see WebhookRouting for who may use them). */
  businessesOfWaba(wabaId: string): Promise<BusinessSecrets[]> {
    return this.wabas.get(wabaId, () => businessRepo.findSecretsByWaba(this.sql, this.sealer, wabaId));
  }

  async number(business: BusinessSecrets, phoneNumberId: string) {
    const key = `${business.company_id}:${business.id}:${phoneNumberId}`;
    const row = await this.numbers.get(key, () => officialRepo.findByPhoneNumberId(this.sql, business.company_id, business.id, phoneNumberId));
    if (!row) this.numbers.delete(key);
    return row;
  }
}
