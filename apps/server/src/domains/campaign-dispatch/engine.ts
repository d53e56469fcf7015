import type { AppContext } from "../../core/context.js";
import { SendPacer } from "../../core/send-pacer.js";
import type { Sql } from "../../db/sql.js";
import { applyTransitions } from "./counters.js";
import { campaignNotifier } from "./events.js";
import type { DispatchOptions } from "./options.js";
import type { SendOutcome } from "./outcome.js";
import { portfolioOutput, windowFreesAt } from "./portfolio-limit.js";
import * as repo from "./repository.js";
import type { CampaignSender, SendingNumber } from "./sender.js";
import { finishIfDone } from "./statuses.js";
import type { CampaignTemplate } from "./template-message.js";
import { UNCONFIRMED } from "./unconfirmed.js";

export const RESUME_JOB = "campaign-dispatch.resume";


/** Claims are sized for this share of a second, so a pause (re-read before each claim) stops sending within it. */
const BATCH_SECONDS = 0.25;
const IDLE_MS = 250;
/** Batches whose answers may wait to be recorded while the next ones go out (4 × 0.25 s). */
const MAX_UNRECORDED = 4;
const RECONCILE_EVERY_MS = 5000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A seam for tests and the bench: the time each send starts, per number (the pacing's own clock). */
export const sendStarts: { observe?: (numberId: number, at: number) => void } = {};

type Claim = { kind: "rows"; campaignId: number; rows: repo.ClaimedRow[] } | { kind: "idle"; campaignIds: number[] } | { kind: "done" };
type BatchResult = { row: repo.ClaimedRow; outcome: SendOutcome; at: Date };

/**
 * The dispatch engine of one server process (docs/architecture.md "Dispatch: exact rate, exactly
 * once"). Every `pollMs` it looks for numbers of RUNNING campaigns and takes the lease of those no
 * live process holds; each held number runs one NumberLoop. It also ends rows left `sending` past the
 * reconciliation window. Nothing lives only in memory: the rows, the campaign status and the leases
 * are in the database, so a killed process loses nothing but the answers of the sends in flight.
 */
export class CampaignDispatcher {
  private readonly loops = new Map<number, NumberLoop>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private lastReconcile = 0;
  private stopped = false;
  private started = false;

  constructor(
    readonly ctx: AppContext,
    readonly opts: DispatchOptions,
    readonly senders: { graph: CampaignSender; sandbox: CampaignSender },
  ) {}

  start(): void {
    this.stopped = false;
    this.started = true;
    const tick = () => {
      if (this.stopped) return;
      this.kick();
      this.timer = setTimeout(tick, this.opts.pollMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Looks for work now (after a start, a resume). */
  kick(): void {
    if (!this.started || this.stopped || this.polling) return;
    this.polling = this.poll()
      .catch((err: unknown) => this.ctx.log.error({ err }, "campaign dispatcher: polling for running campaigns failed; tried again next poll"))
      .finally(() => {
        this.polling = null;
      });
  }

  private async poll(): Promise<void> {
    if (Date.now() - this.lastReconcile >= Math.min(RECONCILE_EVERY_MS, this.opts.reconcileMs)) {
      this.lastReconcile = Date.now();
      await reconcileUnconfirmed(this.ctx, this.opts.reconcileMs);
    }
    for (const n of await repo.runningNumbers(this.ctx.sql)) {
      if (this.stopped || this.loops.has(n.number_id)) continue;
      if (!(await repo.acquireLease(this.ctx.sql, n.number_id, n.company_id, this.opts.ownerId, this.opts.leaseMs))) continue;
      const loop = new NumberLoop(this, n.number_id);
      this.loops.set(n.number_id, loop);
      void loop.run().finally(() => this.loops.delete(n.number_id));
    }
  }

  /** Stops every loop (each finishes the send in flight and records it) and frees their leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await Promise.all([...this.loops.values()].map((l) => l.stop()));
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

/**
 * Drives one number while this process holds its lease: claim a batch (a quarter second of its
 * throughput) from its running campaigns in turn, send each at its slot, record the answers, renew
 * the lease; until no running campaign uses it.
 *
 * Pacing (core/send-pacer.ts, as the SMS and e-mail engines): send i never starts before t0 + i/rate,
 * nor before the **answer** to the send `rate` places earlier plus one second, so Meta never sees more
 * than `rate` of this number's sends in any one second, whatever delays a request on its way, while
 * the average stays on the rate (less one answer's latency per second).
 */
class NumberLoop {
  private stopping = false;
  private done: Promise<void> | null = null;
  private readonly templates = new Map<number, Map<number, CampaignTemplate>>();
  private turn = 0;

  constructor(
    private readonly d: CampaignDispatcher,
    private readonly numberId: number,
  ) {}

  private get ctx() {
    return this.d.ctx;
  }

  run(): Promise<void> {
    this.done = this.loop()
      .catch((err: unknown) => this.ctx.log.error({ err, numberId: this.numberId }, "campaign dispatcher: a number's loop stopped on an error; the next poll takes it again"))
      .finally(() => repo.releaseLease(this.ctx.sql, this.numberId, this.d.opts.ownerId).catch((err: unknown) => this.ctx.log.warn({ err, numberId: this.numberId }, "campaign lease not released; it expires")));
    return this.done;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.done;
  }

  private async loop(): Promise<void> {
    const number = await repo.loadNumber(this.ctx.sql, this.ctx.secrets, this.numberId);
    if (!number) return;
    const rate = number.throughputPerSecond;
    const numberId = this.numberId;
    const pacer = new SendPacer({ rate, catchUp: 2, observe: (at) => sendStarts.observe?.(numberId, at) });
    const batchSize = Math.max(1, Math.ceil(rate * BATCH_SECONDS));
    const sender = number.sandbox ? this.d.senders.sandbox : this.d.senders.graph;
    let recording: Promise<void> = Promise.resolve();
    const unrecorded: Promise<void>[] = [];
    // the next batch is claimed while the current one goes out, so the schedule has no gaps
    let prefetch: Promise<Claim> | null = null;
    try {
      while (!this.stopping && !this.d.isStopped) {
        const claim = await (prefetch ?? this.nextClaim(number, batchSize));
        prefetch = null;
        if (claim.kind === "done") return;
        if (claim.kind === "idle") {
          await recording;
          await finishIfDone(this.ctx, claim.campaignIds);
          pacer.restart();
          await sleep(IDLE_MS);
          continue;
        }
        prefetch = this.nextClaim(number, batchSize);
        const { answers } = await this.sendBatch(number, sender, pacer, claim.campaignId, claim.rows);
        // backpressure: at most MAX_UNRECORDED batches (a second of sending) wait to be recorded, so a
        // database slower than the sends slows the sending instead of leaving rows `sending` for long
        recording = recording.then(() =>
          answers.then((r) => recordResults(this.ctx, this.d.opts, number, claim.campaignId, r)).catch((err: unknown) =>
            // the rows stay `sending` and are reconciled from their status webhooks
            this.ctx.log.error({ err, numberId: number.id, campaignId: claim.campaignId }, "campaign batch answers could not be recorded"),
          ),
        );
        unrecorded.push(recording);
        if (unrecorded.length > MAX_UNRECORDED) await unrecorded.shift();
      }
    } finally {
      await recording;
      if (prefetch) {
        const ahead = await prefetch.catch((err: unknown) => {
          // a failed claim took no rows (its transaction rolled back)
          this.ctx.log.warn({ err, numberId: this.numberId }, "campaign claim ahead failed while the loop stopped");
          return null;
        });
        await this.unclaim(ahead);
      }
    }
  }

  /** Rows claimed ahead and never sent (the loop stopped): back to pending, as if never claimed. */
  private async unclaim(claim: Claim | null): Promise<void> {
    if (claim?.kind !== "rows") return;
    await this.ctx.sql.exec("UPDATE campaign_recipients SET state = 'pending', claimed_at = NULL WHERE id = ANY($1::bigint[]) AND state = 'sending'", [
      claim.rows.map((r) => r.id),
    ]);
  }

  /** Renews the lease, re-reads the running campaigns (a pause shows here) and claims from them in turn. */
  private async nextClaim(number: SendingNumber, batchSize: number): Promise<Claim> {
    if (!(await repo.renewLease(this.ctx.sql, number.id, this.d.opts.ownerId, this.d.opts.leaseMs))) return { kind: "done" };
    const campaigns = await repo.runningCampaignsOf(this.ctx.sql, number);
    if (!campaigns.length) return { kind: "done" };
    const turn = this.turn++;
    for (let i = 0; i < campaigns.length; i++) {
      const c = campaigns[(turn + i) % campaigns.length]!;
      const rows = await this.claim(number, c.id, batchSize);
      if (rows.length) return { kind: "rows", campaignId: c.id, rows };
    }
    return { kind: "idle", campaignIds: campaigns.map((c) => c.id) };
  }

  /**
   * The portfolio's remaining output bounds the claim (its tier limit minus the unique phones of the
   * last 24 h, minus the sends in flight), under a per-business lock so two numbers of one business
   * cannot both take the last room. None left: the campaign waits (WAITING) for the window to free.
   */
  private claim(number: SendingNumber, campaignId: number, batchSize: number): Promise<repo.ClaimedRow[]> {
    return this.ctx.sql.tx(async (sql) => {
      await sql.exec("SELECT pg_advisory_xact_lock(727530, $1)", [number.businessId]);
      const output = await portfolioOutput(sql, number.companyId, number.businessId);
      let limit = batchSize;
      if (Number.isFinite(output.remaining)) {
        const room = output.remaining - (await repo.sendingCount(sql, number.companyId, number.businessId));
        if (room <= 0) {
          await this.wait(sql, number, campaignId);
          return [];
        }
        limit = Math.min(limit, room);
      }
      return repo.claimRows(sql, campaignId, number.id, limit, this.d.opts.pairGapMs + BATCH_SECONDS * 1000 + 500);
    });
  }

  private async wait(sql: Sql, number: SendingNumber, campaignId: number): Promise<void> {
    const pending = await sql.maybe("SELECT 1 FROM campaign_recipients WHERE campaign_id = $1 AND state = 'pending' LIMIT 1", [campaignId]);
    if (!pending) return;
    const moved = await sql.exec("UPDATE campaigns SET status = 'WAITING', updated_at = now() WHERE id = $1 AND status = 'RUNNING'", [campaignId]);
    if (!moved) return;
    const frees = await windowFreesAt(sql, number.businessId);
    const at = Math.max(Date.now() + 1000, (frees?.getTime() ?? Date.now() + 60_000) + 1000);
    await this.ctx.jobs.send(RESUME_JOB, { companyId: number.companyId, campaignId }, { startAfter: at, db: sql });
    campaignNotifier(this.ctx).changed([campaignId]);
  }

  private async templatesOf(companyId: number, campaignId: number): Promise<Map<number, CampaignTemplate>> {
    let m = this.templates.get(campaignId);
    if (!m) {
      m = new Map((await repo.campaignTemplates(this.ctx.sql, companyId, campaignId)).map((t) => [t.id, t]));
      this.templates.set(campaignId, m);
    }
    return m;
  }

  /** Sends each row at its slot; resolves once the last request has gone out, with the promise of all answers. */
  private async sendBatch(
    number: SendingNumber,
    sender: CampaignSender,
    pacer: SendPacer,
    campaignId: number,
    rows: repo.ClaimedRow[],
  ): Promise<{ answers: Promise<BatchResult[]> }> {
    const templates = await this.templatesOf(number.companyId, campaignId);
    const inflight: Promise<BatchResult>[] = [];
    for (const row of rows) {
      const paced = await pacer.slot();
      const template = row.template_id === null ? undefined : templates.get(row.template_id);
      inflight.push(
        (template
          ? sender.send(number, { rowId: row.id, phone: row.phone, variables: row.variables, template })
          : Promise.resolve<SendOutcome>({ kind: "failed", code: null, message: "A campanha não tem template" })
        ).then(
          (outcome) => {
            paced.settle();
            return { row, outcome, at: new Date() };
          },
          (err: unknown) => {
            paced.settle();
            // a driver that threw (not a Graph answer): the outcome is unknown, so the row waits for its statuses
            this.ctx.log.error({ err, rowId: row.id, campaignId }, "campaign send threw; the row is left to reconciliation");
            return { row, outcome: { kind: "unknown", message: String(err) } as SendOutcome, at: new Date() };
          },
        ),
      );
    }
    return { answers: Promise.all(inflight) };
  }
}

/**
 * Records a batch's answers in one transaction: the rows (one UPDATE; never lowering a state a
 * status webhook already raised), the business-initiated conversations opened (not for a phone inside
 * its customer-service window), the counters (one UPDATE), and a pause when the account is blocked.
 */
export async function recordResults(
  ctx: AppContext,
  opts: DispatchOptions,
  number: SendingNumber,
  campaignId: number,
  results: BatchResult[],
): Promise<void> {
  const known = results.filter((r) => r.outcome.kind !== "unknown");
  const violation = results.find((r) => r.outcome.kind === "violation")?.outcome;
  if (!known.length) return;
  const kinds = known.map((r) => {
    const o = r.outcome;
    if (o.kind === "retry" && r.row.attempts + 1 >= opts.maxAttempts) return "failed";
    return o.kind;
  });
  const nextAt = known.map((r) => {
    const o = r.outcome;
    if (o.kind !== "retry") return null;
    const base = o.pair ? opts.pairGapMs : opts.retryBaseMs;
    return new Date(Date.now() + base * 2 ** r.row.attempts);
  });
  const changed = await ctx.sql.tx(async (sql) => {
    const before = await sql.many<{ id: string; state: string }>(
      "SELECT r.id::text, r.state FROM campaign_recipients r WHERE r.id = ANY($1::bigint[]) ORDER BY r.id FOR UPDATE", // numeric order, as statuses.ts
      [known.map((r) => r.row.id)],
    );
    const after = await sql.many<{ id: string; state: string; phone: string; sent: boolean }>(
      `UPDATE campaign_recipients r SET
          state = CASE WHEN r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' AND x.kind = 'sent' THEN 'sent'
                       WHEN r.state <> 'sending' THEN r.state
                       WHEN x.kind = 'sent' THEN 'sent' WHEN x.kind = 'failed' THEN 'failed' ELSE 'pending' END,
          provider_id = COALESCE(r.provider_id, x.provider_id),
          sent_at = CASE WHEN x.kind = 'sent' THEN COALESCE(r.sent_at, x.at) ELSE r.sent_at END,
          attempts = r.attempts + CASE WHEN x.kind = 'violation' THEN 0 ELSE 1 END,
          next_attempt_at = CASE WHEN x.kind = 'retry' THEN x.next_at ELSE r.next_attempt_at END,
          error_code = CASE WHEN x.kind IN ('failed', 'retry') AND r.state = 'sending' THEN x.code ELSE r.error_code END,
          error_message = CASE WHEN x.kind IN ('failed', 'retry') AND r.state = 'sending' THEN x.message
                               WHEN x.kind = 'sent' AND r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' THEN ''
                               ELSE r.error_message END,
          failed_at = CASE WHEN x.kind = 'failed' AND r.state = 'sending' THEN x.at
                           WHEN x.kind = 'sent' AND r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' THEN NULL
                           ELSE r.failed_at END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[])
              AS x(id, kind, provider_id, code, message, next_at, at)
        WHERE r.id = x.id
        RETURNING r.id::text, r.state, r.phone, x.kind = 'sent' AS sent`,
      [
        known.map((r) => r.row.id),
        kinds,
        known.map((r) => (r.outcome.kind === "sent" ? r.outcome.providerId : null)),
        known.map((r) => ("code" in r.outcome ? r.outcome.code : null)),
        known.map((r) => ("message" in r.outcome ? r.outcome.message : "")),
        nextAt,
        known.map((r) => r.at),
      ],
    );
    const sentPhones = after.filter((a) => a.sent).map((a) => a.phone);
    if (sentPhones.length) {
      await sql.exec(
        `INSERT INTO business_initiated_sends (company_id, business_id, phone, sent_at)
         SELECT $1, $2, p, now() FROM unnest($4::text[]) AS p
          WHERE NOT EXISTS (SELECT 1 FROM official_conversations oc WHERE oc.company_id = $1 AND oc.whatsapp_id = $3 AND oc.contact_number = p
                              AND oc.last_inbound_at > now() - interval '24 hours')`,
        [number.companyId, number.businessId, number.whatsappId, sentPhones],
      );
    }
    const was = new Map(before.map((b) => [b.id, b.state]));
    const ids = await applyTransitions(
      sql,
      after.map((a) => ({ campaignId, before: was.get(a.id) ?? a.state, after: a.state })),
    );
    if (violation && violation.kind === "violation") {
      await sql.exec(
        "UPDATE campaigns SET status = 'PAUSED', account_violation = $2, updated_at = now() WHERE id = $1 AND status IN ('RUNNING', 'WAITING')",
        [campaignId, `(#${violation.code ?? ""}) ${violation.message}`.slice(0, 1000)],
      );
      ids.push(campaignId);
    }
    return ids;
  });
  ctx.metrics.countSends("whatsapp", kinds.map((k) => (k === "sent" || k === "failed" ? k : "retry")));
  if (changed.length) campaignNotifier(ctx).changed(changed);
}

/**
 * Rows left `sending` longer than the reconciliation window with nothing confirming them (their
 * process died between the claim and Meta's answer, and no status webhook named them) end `failed`
 * with "outcome not confirmed": never sent again. A status arriving later still revives them.
 */
export async function reconcileUnconfirmed(ctx: AppContext, reconcileMs: number): Promise<number> {
  const rows = await ctx.sql.tx(async (sql) => {
    const ended = await sql.many<{ campaign_id: number }>(
      `UPDATE campaign_recipients SET state = 'failed', failed_at = now(), error_code = NULL,
              error_message = '${UNCONFIRMED}: the send was interrupted and no status confirmed it'
        WHERE id IN (SELECT id FROM campaign_recipients WHERE state = 'sending' AND claimed_at < now() - $1 * interval '1 millisecond'
                      ORDER BY id LIMIT 5000 FOR UPDATE SKIP LOCKED)
        RETURNING campaign_id`,
      [reconcileMs],
    );
    await applyTransitions(sql, ended.map((r) => ({ campaignId: r.campaign_id, before: "sending", after: "failed" })));
    return ended;
  });
  const campaigns = [...new Set(rows.map((r) => r.campaign_id))];
  if (campaigns.length) {
    ctx.log.warn({ rows: rows.length, campaigns }, "campaign rows left sending were not confirmed within the reconciliation window; marked failed");
    await finishIfDone(ctx, campaigns);
    campaignNotifier(ctx).changed(campaigns);
  }
  return rows.length;
}
