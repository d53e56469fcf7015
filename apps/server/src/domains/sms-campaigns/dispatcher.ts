import { countSmsSegments, fillSmsTemplate } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { SendPacer } from "../../core/send-pacer.js";
import type { SmsDriver, SmsSendOutcome } from "../sms-provider/driver.js";
import { takeDueSandboxReceipts } from "../sms-provider/sandbox-provider.js";
import { acquireSmsLease, claimSmsRows, releaseSmsLease, renewSmsLease, runningSmsCampaigns, type ClaimedSmsRow, type RunningSmsCampaign } from "./claim.js";
import { smsNotifier } from "./events.js";
import type { SmsDispatchOptions } from "./options.js";
import { applySmsReceipts, finishIfDone, reconcileUnconfirmed, UNCONFIRMED } from "./receipts.js";
import { shortenText, storeShortLinks, type ShortLink } from "./short-links.js";
import { companyLinks } from "../campaign-links/company-links.js";
import { ContentUrls } from "../campaign-links/content-urls.js";
import { sendingWindowOpen } from "./window.js";

/** Claims are sized for this share of a second, so a pause (re-read before each claim) stops sending within it. */
const BATCH_SECONDS = 0.25;
const IDLE_MS = 250;
const MAX_UNRECORDED = 4;
const RECONCILE_EVERY_MS = 5000;
const RECEIPTS_PER_TX = 1000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A seam for tests and the bench: the instant each send starts. */
export const smsSendStarts: { observe?: (at: number) => void } = {};
/** A seam for tests: the clock the sending window reads. */
export const smsClock: { now: () => Date } = { now: () => new Date() };

interface Prepared {
  row: ClaimedSmsRow;
  body: string;
  segments: number;
}
type Next = { kind: "done" } | { kind: "idle"; campaignIds: number[] } | { kind: "rows"; campaign: RunningSmsCampaign; prepared: Prepared[] };
interface Result {
  p: Prepared;
  outcome: SmsSendOutcome;
  at: Date;
}

/**
 * The SMS engine of one server process (docs/architecture.md "SMS campaigns: dispatch"). The
 * provider account's rate (SMS_RATE_PER_SECOND) is one budget for every company, so one process at a
 * time sends: the holder of the `sms` lease. Every process polls: it applies due sandbox receipts,
 * ends rows left `sending` past the reconciliation window, and takes the lease when it is free or
 * expired (the holder died), so another process carries on within SMS_LEASE_SECONDS of a crash.
 * Nothing lives only in memory: rows, statuses and the lease are in the database.
 */
export class SmsDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private sending: Promise<void> | null = null;
  private lastReconcile = 0;
  private stopped = false;
  private started = false;
  /**
   * The pacing (core/send-pacer.ts): the one-second window counted from the provider's answers, so the
   * provider never sees more than `rate` requests in a second; late slots caught up at twice the pace.
   */
  private readonly pacer: SendPacer;
  private turn = 0;

  constructor(
    readonly ctx: AppContext,
    readonly opts: SmsDispatchOptions,
    readonly driver: SmsDriver,
    readonly rate: number,
  ) {
    this.pacer = new SendPacer({ rate, catchUp: 2, observe: (at) => smsSendStarts.observe?.(at) });
  }

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

  kick(): void {
    if (!this.started || this.stopped || this.polling) return;
    this.polling = this.poll()
      .catch((err: unknown) => this.ctx.log.error({ err }, "sms dispatcher: a poll failed; tried again on the next"))
      .finally(() => {
        this.polling = null;
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.sending;
  }

  private async poll(): Promise<void> {
    if (this.driver.name === "sandbox") {
      while (!this.stopped) {
        const n = await takeDueSandboxReceipts(this.ctx.sql, RECEIPTS_PER_TX, async (sql, companyId, receipts) => {
          smsNotifier(this.ctx).changed(await applySmsReceipts(sql, companyId, receipts));
        });
        if (n < RECEIPTS_PER_TX) break;
      }
    }
    if (Date.now() - this.lastReconcile >= Math.min(RECONCILE_EVERY_MS, this.opts.reconcileMs)) {
      this.lastReconcile = Date.now();
      await reconcileUnconfirmed(this.ctx, this.opts.reconcileMs);
    }
    if (this.sending || this.stopped) return;
    if (!(await acquireSmsLease(this.ctx.sql, this.opts.ownerId, this.opts.leaseMs))) return;
    this.sending = this.loop()
      .catch((err: unknown) => this.ctx.log.error({ err }, "sms dispatcher: the sending loop stopped on an error; the next poll starts it again"))
      .finally(async () => {
        await releaseSmsLease(this.ctx.sql, this.opts.ownerId).catch((err: unknown) => this.ctx.log.warn({ err }, "sms lease not released; it expires"));
        this.sending = null;
      });
  }

  /**
   * Claims the next batch (renewing the lease and re-reading the running campaigns first) and fills
   * its texts. Called for batch n+1 while batch n goes out, so the schedule has no gaps.
   */
  private async next(batchSize: number): Promise<Next> {
    if (!(await renewSmsLease(this.ctx.sql, this.opts.ownerId, this.opts.leaseMs))) return { kind: "done" };
    const running = await runningSmsCampaigns(this.ctx.sql);
    if (!running.length) return { kind: "done" };
    const now = smsClock.now();
    const open = running.filter((c) => sendingWindowOpen(now, c.time_zone, c.start_minute, c.end_minute));
    const claimed = await this.claimFromOne(open, batchSize);
    if (!claimed) return { kind: "idle", campaignIds: open.map((c) => c.id) };
    const { campaign, rows } = claimed;
    if (rows.some((r) => r.state === "skipped")) smsNotifier(this.ctx).changed([campaign.id]);
    const toSend = rows.filter((r) => r.state === "sending");
    return { kind: "rows", campaign, prepared: toSend.length ? await this.prepare(campaign, toSend) : [] };
  }

  /** Rows claimed and never sent (the loop stopped, or their campaign was paused meanwhile): pending again. */
  private async unclaim(prepared: Prepared[]): Promise<void> {
    if (!prepared.length) return;
    await this.ctx.sql.exec("UPDATE sms_campaign_recipients SET state = 'pending', claimed_at = NULL WHERE id = ANY($1::bigint[]) AND state = 'sending'", [
      prepared.map((p) => p.row.id),
    ]);
  }

  private async stillRunning(campaignId: number): Promise<boolean> {
    return (await this.ctx.sql.maybe("SELECT 1 FROM sms_campaigns WHERE id = $1 AND status = 'RUNNING'", [campaignId])) !== null;
  }

  private async loop(): Promise<void> {
    const batchSize = Math.max(1, Math.ceil(this.rate * BATCH_SECONDS));
    let recording: Promise<void> = Promise.resolve();
    const unrecorded: Promise<void>[] = [];
    let ahead: Promise<Next> | null = null;
    try {
      while (!this.stopped) {
        const n: Next = await (ahead ?? this.next(batchSize));
        ahead = null;
        if (n.kind === "done") return;
        if (n.kind === "idle") {
          await recording;
          await finishIfDone(this.ctx, n.campaignIds);
          this.pacer.restart();
          await sleep(IDLE_MS);
          continue;
        }
        if (!n.prepared.length) continue;
        // claimed while the previous batch went out: a pause or cancel since then keeps it unsent
        if (!(await this.stillRunning(n.campaign.id))) {
          await this.unclaim(n.prepared);
          continue;
        }
        ahead = this.next(batchSize);
        const campaignId = n.campaign.id;
        const { answers } = await this.sendBatch(n.campaign, n.prepared);
        // backpressure: at most MAX_UNRECORDED batches (a second of sending) wait to be recorded
        recording = recording.then(() =>
          answers
            .then((r) => this.record(campaignId, r))
            .catch((err: unknown) => this.ctx.log.error({ err, smsCampaignId: campaignId }, "sms batch answers could not be recorded; the rows wait for their receipts")),
        );
        unrecorded.push(recording);
        if (unrecorded.length > MAX_UNRECORDED) await unrecorded.shift();
      }
    } finally {
      await recording;
      if (ahead) {
        const left = await (ahead as Promise<Next>).catch((err: unknown) => {
          // a failed claim took no rows (its transaction rolled back)
          this.ctx.log.warn({ err }, "sms claim ahead failed while the loop stopped");
          return null;
        });
        if (left?.kind === "rows") await this.unclaim(left.prepared);
      }
    }
  }

  /** The open campaigns in turn: the first that has due rows gives a batch. */
  private async claimFromOne(open: RunningSmsCampaign[], batchSize: number) {
    const turn = this.turn++;
    for (let i = 0; i < open.length; i++) {
      const campaign = open[(turn + i) % open.length]!;
      const rows = await claimSmsRows(this.ctx.sql, campaign.id, batchSize);
      if (rows.length) return { campaign, rows };
    }
    return null;
  }

  /** Fills each row's text (its CSV columns per the variable matrix), shortens URLs, stores the links. */
  private async prepare(c: RunningSmsCampaign, rows: ClaimedSmsRow[]): Promise<Prepared[]> {
    const links: ShortLink[] = [];
    // the company's link host and the template's own URLs, once a batch
    const shortening = c.use_shortener_url
      ? { base: (await companyLinks(this.ctx.sql, c.company_id, this.ctx.config.publicUrl)).base, content: ContentUrls.ofText(c.template_content) }
      : null;
    const out = rows.map((row) => {
      const values = Object.fromEntries(c.matrix_variables.map((m) => [m.template_variable, row.variables[m.file_index] ?? ""]));
      let body = fillSmsTemplate(c.template_content, values);
      if (shortening) {
        const s = shortenText(body, shortening.base, shortening.content, { companyId: c.company_id, campaignId: c.id, recipientId: row.id });
        body = s.text;
        links.push(...s.links);
      }
      return { row, body, segments: countSmsSegments(body).segments };
    });
    await storeShortLinks(this.ctx.sql, links);
    return out;
  }

  /** Sends each row at its slot; resolves once the last request has gone out, with the promise of every answer. */
  private async sendBatch(c: RunningSmsCampaign, prepared: Prepared[]): Promise<{ answers: Promise<Result[]> }> {
    const inflight: Promise<Result>[] = [];
    for (const p of prepared) {
      const paced = await this.pacer.slot();
      inflight.push(
        this.driver.send({ companyId: c.company_id, rowId: p.row.id, to: p.row.phone, body: p.body, segments: p.segments }).then(
          (outcome) => {
            paced.settle();
            return { p, outcome, at: new Date() };
          },
          (err: unknown) => {
            paced.settle();
            this.ctx.log.error({ err, rowId: p.row.id, smsCampaignId: c.id }, "sms send threw; the row is left to its receipt or reconciliation");
            return { p, outcome: { kind: "unknown", message: String(err) } as SmsSendOutcome, at: new Date() };
          },
        ),
      );
    }
    return { answers: Promise.all(inflight) };
  }

  /**
   * Records a batch's answers in one transaction (never lowering a state a receipt already raised):
   * sent → triggered; failed → not delivered (permanent marks the number for the blacklist option);
   * retry → pending again after a back-off, failed after SMS_MAX_ATTEMPTS; account → pending and the
   * campaign paused with the provider's message; unknown → left `sending` for its receipt.
   */
  private async record(campaignId: number, results: Result[]): Promise<void> {
    const known = results.filter((r) => r.outcome.kind !== "unknown");
    if (!known.length) return;
    const kinds = known.map((r) => (r.outcome.kind === "retry" && r.p.row.attempts + 1 >= this.opts.maxAttempts ? "failed" : r.outcome.kind));
    const account = known.find((r) => r.outcome.kind === "account")?.outcome;
    const field = <T>(f: (o: SmsSendOutcome) => T | undefined, d: T) => known.map((r) => f(r.outcome) ?? d);
    await this.ctx.sql.tx(async (sql) => {
      await sql.exec("SELECT 1 FROM sms_campaign_recipients WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE", [known.map((r) => r.p.row.id)]);
      await sql.exec(
        `UPDATE sms_campaign_recipients r SET
            state = CASE WHEN r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' AND x.kind = 'sent' THEN 'sent'
                         WHEN r.state <> 'sending' THEN r.state
                         WHEN x.kind = 'sent' THEN 'sent' WHEN x.kind = 'failed' THEN 'failed' ELSE 'pending' END,
            provider_id = COALESCE(r.provider_id, x.provider_id),
            body = x.body, segments = x.segments,
            sent_at = CASE WHEN x.kind = 'sent' THEN COALESCE(r.sent_at, x.at) ELSE r.sent_at END,
            attempts = r.attempts + CASE WHEN x.kind = 'account' THEN 0 ELSE 1 END,
            next_attempt_at = CASE WHEN x.kind = 'retry' THEN x.next_at ELSE r.next_attempt_at END,
            error_code = CASE WHEN x.kind <> 'sent' AND r.state = 'sending' THEN x.code ELSE r.error_code END,
            error_permanent = CASE WHEN x.kind = 'failed' AND r.state = 'sending' THEN x.permanent ELSE r.error_permanent END,
            error_message = CASE WHEN x.kind <> 'sent' AND r.state = 'sending' THEN x.message
                                 WHEN x.kind = 'sent' AND r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' THEN ''
                                 ELSE r.error_message END,
            failed_at = CASE WHEN x.kind = 'failed' AND r.state = 'sending' THEN x.at
                             WHEN x.kind = 'sent' AND r.state = 'failed' AND r.error_message LIKE '${UNCONFIRMED}%' THEN NULL
                             ELSE r.failed_at END
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::boolean[], $7::timestamptz[], $8::timestamptz[], $9::text[], $10::int[])
                AS x(id, kind, provider_id, code, message, permanent, next_at, at, body, segments)
          WHERE r.id = x.id`,
        [
          known.map((r) => r.p.row.id),
          kinds,
          field((o) => (o.kind === "sent" ? o.providerId : null), null),
          field((o) => ("code" in o ? o.code : null), null),
          field((o) => ("message" in o ? o.message : ""), ""),
          field((o) => (o.kind === "failed" ? o.permanent : false), false),
          known.map((r) => (r.outcome.kind === "retry" ? new Date(Date.now() + this.opts.retryBaseMs * 2 ** r.p.row.attempts) : null)),
          known.map((r) => r.at),
          known.map((r) => r.p.body),
          known.map((r) => r.p.segments),
        ],
      );
      if (account && account.kind === "account") {
        await sql.exec("UPDATE sms_campaigns SET status = 'PAUSED', account_violation = $2, updated_at = now() WHERE id = $1 AND status = 'RUNNING'", [
          campaignId,
          `(${account.code ?? ""}) ${account.message}`.slice(0, 1000),
        ]);
      }
    });
    this.ctx.metrics.countSends("sms", kinds.map((k) => (k === "sent" || k === "failed" ? k : "retry")));
    if (account) await smsNotifier(this.ctx).now(campaignId);
    smsNotifier(this.ctx).changed([campaignId]);
  }
}
