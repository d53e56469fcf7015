import { randomBytes } from "node:crypto";
import { GraphClient } from "../../channels/cloud-api/graph-client.js";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
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

/** The phone's ticks per simulated status (a failure leaves them as they were). */
const ACK_OF = { sent: 2, delivered: 3, read: 4 } as const;

/**
 * The sandbox business: the rendered template text lands on the sandbox phone (sandbox_messages, the
 * table the sandbox phone page shows) of the number's sandbox connection, and its statuses are
 * simulated sent → delivered → read, `stepMs` apart, or failed with the business's failure rate. The
 * statuses are owed by the row (`simulated_steps`, the next one due at `simulated_due_at`), not by a
 * timer: `takeDue` gives those due, in any process, after any restart.
 */
export function sandboxCampaignSender(ctx: AppContext, o: { stepMs: number; random?: () => number }): CampaignSender {
  const random = o.random ?? Math.random;
  return {
    async send(number, item) {
      const rendered = renderTemplate(item.template, item.variables);
      if (rendered.problems.length) return unfillable(rendered.problems);
      const providerId = `SBC${randomBytes(10).toString("hex").toUpperCase()}`;
      const steps: SimulatedStatus["status"][] = random() < number.sandboxFailureRate ? ["sent", "failed"] : ["sent", "delivered", "read"];
      await ctx.sql.exec(
        `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, ack,
                                       simulated_steps, simulated_due_at, simulated_row_id)
         VALUES ($1, $2, $3, 'outbound', $4, $5, 'chat', 1, $6, now() + $7 * interval '1 millisecond', $8)`,
        [number.companyId, number.whatsappId, providerId, item.phone, rendered.text, steps, o.stepMs, item.rowId],
      );
      return { kind: "sent", providerId };
    },
  };
}

/**
 * Gives the simulated statuses now due, at most `limit`: claims the rows (their due time moved
 * `claimMs` on, rows locked by another process skipped), hands each company's statuses to `apply`,
 * then marks each step given, moves the phone's ticks and schedules the row's next step `stepMs`
 * later. A process that stops between `apply` and the mark leaves the claim to expire and the step
 * is given again: `apply` must be idempotent (campaign states only rise, so a repeated status changes
 * nothing). Returns how many were due.
 */
export async function giveDueSimulatedStatuses(
  sql: Sql,
  o: { limit: number; stepMs: number; claimMs: number; log: AppContext["log"] },
  apply: (companyId: number, statuses: SimulatedStatus[]) => Promise<void>,
): Promise<number> {
  const due = await sql.many<{ id: string; company_id: number; provider_id: string; row_id: string | null; next: number; status: SimulatedStatus["status"] }>(
    `UPDATE sandbox_messages m SET simulated_due_at = now() + $2 * interval '1 millisecond'
      WHERE m.id IN (SELECT id FROM sandbox_messages WHERE simulated_due_at <= now() ORDER BY simulated_due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING m.id::text, m.company_id, m.provider_id, m.simulated_row_id::text AS row_id, m.simulated_next AS next,
                m.simulated_steps[m.simulated_next + 1] AS status`,
    [o.limit, o.claimMs],
  );
  const byCompany = new Map<number, typeof due>();
  for (const d of due) byCompany.set(d.company_id, [...(byCompany.get(d.company_id) ?? []), d]);
  const given: typeof due = [];
  for (const [companyId, rows] of byCompany) {
    const statuses = rows.map((d) => ({
      companyId,
      rowId: d.row_id ?? "",
      providerId: d.provider_id,
      status: d.status,
      errorCode: d.status === "failed" ? 131026 : null,
      errorTitle: d.status === "failed" ? "Message undeliverable (simulated by the sandbox)" : "",
    }));
    try {
      await apply(companyId, statuses);
      given.push(...rows);
    } catch (err) {
      // claimed and not given: due again when the claim expires
      o.log.error({ err, companyId, statuses: rows.length }, "sandbox campaign: simulated statuses not applied; given again when their claim expires");
    }
  }
  if (given.length) {
    await sql.exec(
      `UPDATE sandbox_messages m SET
              simulated_next = m.simulated_next + 1,
              ack = GREATEST(m.ack, CASE m.simulated_steps[m.simulated_next + 1] WHEN 'sent' THEN ${ACK_OF.sent} WHEN 'delivered' THEN ${ACK_OF.delivered}
                                                                                 WHEN 'read' THEN ${ACK_OF.read} ELSE 0 END),
              simulated_due_at = CASE WHEN m.simulated_next + 1 < cardinality(m.simulated_steps) THEN now() + $3 * interval '1 millisecond' END
         FROM unnest($1::bigint[], $2::smallint[]) AS g(id, next)
        WHERE m.id = g.id AND m.simulated_next = g.next`,
      [given.map((d) => d.id), given.map((d) => d.next), o.stepMs],
    );
  }
  return due.length;
}
