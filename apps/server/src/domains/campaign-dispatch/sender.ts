import { randomBytes } from "node:crypto";
import { GraphClient } from "../../channels/cloud-api/graph-client.js";
import type { AppContext } from "../../core/context.js";
import { outcomeOf, type SendOutcome } from "./outcome.js";
import { renderTemplate, type CampaignTemplate } from "./template-message.js";

/** The number a batch goes out on, with what either driver needs. */
export interface SendingNumber {
  id: number;
  companyId: number;
  businessId: number;
  whatsappId: number;
  phoneNumberId: string;
  throughputPerSecond: number;
  accessToken: string;
  sandbox: boolean;
  sandboxFailureRate: number;
}

export interface SendItem {
  /** campaign_recipients.id: Meta echoes it back as biz_opaque_callback_data in every status. */
  rowId: string;
  phone: string;
  variables: string[];
  template: CampaignTemplate;
}

/** One campaign send driver: the Graph API for real businesses, the sandbox phone for the sandbox business. */
export interface CampaignSender {
  send(number: SendingNumber, item: SendItem): Promise<SendOutcome>;
}

/** A row whose variables do not fill its template: refused before any request (Meta would answer 132000). */
function unfillable(problems: string[]): SendOutcome {
  return { kind: "failed", code: null, message: `Variáveis do template não preenchidas ou inválidas: ${problems.join(", ")}` };
}

/**
 * Cloud API template message (WhatsApp Cloud API "Send message templates"): POST
 * /{phone-number-id}/messages with type template and `biz_opaque_callback_data` = the row id, through
 * the one Graph client (channels/cloud-api/graph-client.ts). One client per access token.
 */
export function graphCampaignSender(ctx: AppContext): CampaignSender {
  const clients = new Map<string, GraphClient>();
  return {
    async send(number, item) {
      const rendered = renderTemplate(item.template, item.variables);
      if (rendered.problems.length) return unfillable(rendered.problems);
      let client = clients.get(number.accessToken);
      if (!client) {
        client = new GraphClient(ctx.config.whatsappGraphUrl, number.accessToken);
        clients.set(number.accessToken, client);
      }
      try {
        const { id } = await client.sendMessage(number.phoneNumberId, {
          recipient_type: "individual",
          to: item.phone,
          type: "template",
          template: rendered.template,
          biz_opaque_callback_data: item.rowId,
        });
        return { kind: "sent", providerId: id };
      } catch (err) {
        return outcomeOf(err);
      }
    },
  };
}

/** A simulated status of a sandbox send, handed to the same handler the webhooks feed. */
export interface SimulatedStatus {
  companyId: number;
  rowId: string;
  providerId: string;
  status: "sent" | "delivered" | "read" | "failed";
  errorCode: number | null;
  errorTitle: string;
}

/**
 * The sandbox business: the rendered template text lands on the sandbox phone (sandbox_messages, the
 * table the sandbox phone page shows) of the number's sandbox connection, and its statuses are
 * simulated sent → delivered → read, `stepMs` apart, or failed with the business's failure rate.
 */
export function sandboxCampaignSender(
  ctx: AppContext,
  o: { stepMs: number; onStatus: (s: SimulatedStatus) => Promise<void>; random?: () => number },
): CampaignSender & { stop(): void } {
  const timers = new Set<NodeJS.Timeout>();
  const random = o.random ?? Math.random;
  const later = (ms: number, fn: () => Promise<void>) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn().catch((err: unknown) => ctx.log.error({ err }, "sandbox campaign: a simulated status could not be applied"));
    }, ms);
    timers.add(t);
  };
  return {
    async send(number, item) {
      const rendered = renderTemplate(item.template, item.variables);
      if (rendered.problems.length) return unfillable(rendered.problems);
      const providerId = `SBC${randomBytes(10).toString("hex").toUpperCase()}`;
      await ctx.sql.exec(
        `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, ack)
         VALUES ($1, $2, $3, 'outbound', $4, $5, 'chat', 1)`,
        [number.companyId, number.whatsappId, providerId, item.phone, rendered.text],
      );
      const fails = random() < number.sandboxFailureRate;
      const steps: SimulatedStatus["status"][] = fails ? ["sent", "failed"] : ["sent", "delivered", "read"];
      steps.forEach((status, i) =>
        later(o.stepMs * (i + 1), async () => {
          const ack = { sent: 2, delivered: 3, read: 4, failed: 0 }[status];
          await ctx.sql.exec("UPDATE sandbox_messages SET ack = GREATEST(ack, $3) WHERE whatsapp_id = $1 AND provider_id = $2", [number.whatsappId, providerId, ack]);
          await o.onStatus({
            companyId: number.companyId,
            rowId: item.rowId,
            providerId,
            status,
            errorCode: status === "failed" ? 131026 : null,
            errorTitle: status === "failed" ? "Message undeliverable (simulated by the sandbox)" : "",
          });
        }),
      );
      return { kind: "sent", providerId };
    },
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
