import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { AppContext } from "../../core/context.js";
import type { MailDriver } from "../email-transport/driver.js";
import type { EmailOptions } from "../email-transport/options.js";
import { companyLinks } from "../campaign-links/company-links.js";
import { emitEmailCampaign, notifyEmailCampaign } from "../email-campaigns/events.js";
import { optedOutAmong } from "../opt-outs/repository.js";
import { campaignMessage, type CampaignContent } from "./message.js";
import type { SendOutcome } from "../../core/metrics.js";
import { SendPacer } from "../../core/send-pacer.js";
import { recordResults, reconcileUnconfirmed, type RowResult } from "./record.js";
import * as repo from "./repository.js";

/** Claims are sized for a quarter second of the rate, so a cancel or pause stops sending within it. */
const BATCH_SECONDS = 0.25;
const IDLE_MS = 250;
const MAX_UNRECORDED = 4;
const RECONCILE_EVERY_MS = 5000;
/** How often the dispatcher re-reads the status of the campaigns it sends for (a pause or cancel made by another process). */
const HALT_CHECK_MS = 100;
/** A halt of a campaign that ended is forgotten after this long. */
const HALT_MEMORY_MS = 60_000;
const SENDING = new Set(["TRIGGERING", "RUNNING"]);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A seam for tests and the bench: when each send starts (the pacing's own clock). */
export const emailSendStarts: { observe?: (at: number) => void } = {};

type Claim = { kind: "rows"; campaign: CampaignContent; rows: repo.ClaimedRow[]; optedOut: Set<string> } | { kind: "idle"; campaignIds: number[] } | { kind: "done" };

/**
 * The e-mail campaign dispatcher of one process (docs/architecture.md "E-mail campaigns"). The SMTP
 * rate (EMAIL_RATE_PER_SECOND) is one budget for the platform, so one process at a time holds the
 * dispatch lease and paces every running campaign (round robin, batch by batch); the others stand by
 * and take over within a lease period when it dies. Rows are claimed (`sending`, committed) before
 * their send, so nothing is ever sent twice; a row left `sending` by a crash ends `unconfirmed`.
 */
export class EmailDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private started = false;
  private lastReconcile = 0;
  private pacer: SendPacer | null = null;
  private turn = 0;
  private readonly contents = new Map<number, CampaignContent>();
  /** Campaigns not to send for (paused, cancelled): id → when it was learned. */
  private readonly halted = new Map<number, number>();
  private sendingFor: number | null = null;
  private watching = false;
  readonly ownerId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: EmailOptions,
    private readonly driver: () => MailDriver,
  ) {}

  start(): void {
    this.started = true;
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.kick();
      this.timer = setTimeout(tick, this.opts.pollMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Looks for work now (after a trigger). */
  kick(): void {
    if (!this.started || this.stopped || this.running) return;
    this.running = this.poll()
      .catch((err: unknown) => this.ctx.log.error({ err }, "e-mail dispatcher stopped on an error; the next poll starts it again"))
      .finally(() => {
        this.running = null;
      });
  }

  /**
   * A pause or cancel committed by this process: no further recipient of the campaign is sent from now
   * on (checked before every send). One committed by another process is learned by the status watch.
   */
  halt(campaignId: number): void {
    this.halted.set(campaignId, Date.now());
  }

  /**
   * The status watch, every HALT_CHECK_MS while sending: marks halted the campaigns no longer sending,
   * and forgets a halt once a read that started after it sees the campaign sending again (a resume).
   */
  private async watchHalts(): Promise<void> {
    if (this.watching) return;
    const ids = [...new Set([...this.halted.keys(), ...(this.sendingFor === null ? [] : [this.sendingFor])])];
    if (!ids.length) return;
    this.watching = true;
    const startedAt = Date.now();
    try {
      const rows = await repo.statusesOf(this.ctx.sql, ids);
      for (const { id, status } of rows) {
        const since = this.halted.get(id);
        if (!SENDING.has(status)) {
          if (since === undefined) this.halted.set(id, startedAt);
          else if (status !== "PAUSED" && startedAt - since > HALT_MEMORY_MS) this.halted.delete(id);
        } else if (since !== undefined && since < startedAt) this.halted.delete(id);
      }
    } catch (err) {
      this.ctx.log.warn({ err, campaigns: ids }, "e-mail campaign status watch failed; the next one tries again");
    } finally {
      this.watching = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Rows a dead process left `sending` past the window end `unconfirmed` (every 5 s, while polling or idle). */
  private async reconcileIfDue(): Promise<void> {
    if (Date.now() - this.lastReconcile < Math.min(RECONCILE_EVERY_MS, this.opts.reconcileMs)) return;
    this.lastReconcile = Date.now();
    const touched = await reconcileUnconfirmed(this.ctx.sql, this.opts.reconcileMs);
    if (touched.length) this.ctx.log.warn({ campaigns: touched }, "e-mail rows left sending by a stopped process were marked unconfirmed (never re-sent)");
    for (const id of touched) await this.finish(id);
  }

  private async poll(): Promise<void> {
    await this.reconcileIfDue();
    if (!(await repo.activeCampaigns(this.ctx.sql)).length) return;
    if (!(await repo.holdLease(this.ctx.sql, this.ownerId, this.opts.leaseMs))) return;
    try {
      await this.loop();
    } finally {
      await repo.releaseLease(this.ctx.sql, this.ownerId).catch((err: unknown) => this.ctx.log.warn({ err }, "e-mail dispatch lease not released; it expires"));
    }
  }

  private async finish(campaignId: number): Promise<void> {
    if (await repo.finishIfDone(this.ctx.sql, campaignId)) {
      const c = await this.content(campaignId);
      if (c) await emitEmailCampaign(this.ctx, c.companyId, campaignId, "update");
      this.contents.delete(campaignId);
    }
  }

  private async content(id: number): Promise<CampaignContent | null> {
    let c = this.contents.get(id) ?? null;
    if (!c) {
      c = await repo.campaignContent(this.ctx.sql, id);
      if (c) this.contents.set(id, c);
    }
    return c;
  }

  private async nextClaim(batchSize: number): Promise<Claim> {
    if (!(await repo.holdLease(this.ctx.sql, this.ownerId, this.opts.leaseMs))) return { kind: "done" };
    const campaigns = await repo.activeCampaigns(this.ctx.sql);
    if (!campaigns.length) return { kind: "done" };
    const turn = this.turn++;
    for (let i = 0; i < campaigns.length; i++) {
      const c = campaigns[(turn + i) % campaigns.length]!;
      // paused or cancelled here a moment ago: the watch clears it once the database says it sends again
      if (this.halted.has(c.id)) continue;
      const rows = await repo.claimRows(this.ctx.sql, c.id, batchSize);
      if (rows.length) {
        const content = await this.content(c.id);
        // an address that unsubscribed after the analysis is skipped, never sent (read here, ahead of the sends)
        const optedOut = content ? await optedOutAmong(this.ctx.sql, content.companyId, "email", rows.map((r) => r.email)) : new Set<string>();
        if (content) return { kind: "rows", campaign: content, rows, optedOut };
      }
    }
    return { kind: "idle", campaignIds: campaigns.map((c) => c.id) };
  }

  /** Claims, sends at the pace, records; until no campaign is running, the lease is lost or the process stops. */
  private async loop(): Promise<void> {
    const rate = this.opts.ratePerSecond;
    const batchSize = Math.max(1, Math.ceil(rate * BATCH_SECONDS));
    let recording: Promise<void> = Promise.resolve();
    const unrecorded: Promise<void>[] = [];
    let prefetch: Promise<Claim> | null = null;
    const watch = setInterval(() => void this.watchHalts(), HALT_CHECK_MS);
    try {
      while (!this.stopped) {
        const claim = await (prefetch ?? this.nextClaim(batchSize));
        prefetch = null;
        if (claim.kind === "done") return;
        if (claim.kind === "idle") {
          await recording;
          // a campaign whose last rows a dead process left `sending` finishes once they are reconciled
          await this.reconcileIfDue();
          for (const id of claim.campaignIds) await this.finish(id);
          this.pacing(rate).restart();
          await sleep(IDLE_MS);
          continue;
        }
        prefetch = this.nextClaim(batchSize);
        const { answers, unsent } = await this.sendBatch(claim.campaign, claim.rows, claim.optedOut, rate);
        const { campaign } = claim;
        // a pause or cancel came mid-batch: what was not sent is pending again (or skipped, when cancelled)
        if (unsent.length) await repo.releaseUnsent(this.ctx.sql, campaign.id, unsent);
        recording = recording.then(() =>
          answers
            .then(async (results) => {
              await recordResults(this.ctx.sql, campaign.id, results, this.opts);
              this.ctx.metrics.countSends("email", sendOutcomes(results, this.opts.maxAttempts));
            })
            .then(() => notifyEmailCampaign(this.ctx, campaign.companyId, campaign.id))
            .catch((err: unknown) =>
              // the rows stay `sending` and end `unconfirmed` after the window: never sent twice
              this.ctx.log.error({ err, campaignId: campaign.id }, "e-mail batch answers could not be recorded"),
            ),
        );
        unrecorded.push(recording);
        if (unrecorded.length > MAX_UNRECORDED) await unrecorded.shift();
      }
    } finally {
      clearInterval(watch);
      await recording;
      if (prefetch) {
        const ahead = await prefetch.catch((err: unknown) => {
          this.ctx.log.warn({ err }, "e-mail claim ahead failed while the dispatcher stopped");
          return null;
        });
        // rows claimed ahead and never sent: back to pending, as if never claimed
        if (ahead?.kind === "rows") await repo.releaseUnsent(this.ctx.sql, ahead.campaign.id, ahead.rows.map((r) => r.id));
      }
    }
  }

  /** The pacing (core/send-pacer.ts), kept across loops so the one-second window spans an idle pause. */
  private pacing(rate: number): SendPacer {
    this.pacer ??= new SendPacer({ rate, observe: (at) => emailSendStarts.observe?.(at) });
    return this.pacer;
  }

  /**
   * Resolves once the last send of the batch has started, with the promise of all answers, and the rows
   * not sent because the campaign was paused or cancelled meanwhile (checked just before each send).
   */
  private async sendBatch(
    c: CampaignContent,
    rows: repo.ClaimedRow[],
    optedOut: Set<string>,
    rate: number,
  ): Promise<{ answers: Promise<RowResult[]>; unsent: string[] }> {
    const driver = this.driver();
    const { base } = await companyLinks(this.ctx.sql, c.companyId, this.ctx.config.publicUrl);
    const settings = { publicUrl: base, appSecret: this.ctx.config.jwtSecret, bounceDomain: this.opts.bounceDomain };
    const inflight: Promise<RowResult | null>[] = [];
    const unsent: string[] = [];
    this.sendingFor = c.id;
    for (const [i, row] of rows.entries()) {
      if (this.halted.has(c.id)) {
        unsent.push(...rows.slice(i).map((r) => r.id));
        break;
      }
      if (optedOut.has(row.email.toLowerCase())) {
        inflight.push(Promise.resolve({ row, outcome: { kind: "opted_out" }, at: new Date() }));
        continue;
      }
      // built before the slot: the signing and HTML work stays off the paced path
      const message = campaignMessage(c, row, settings);
      // a free pooled connection too, so the message is on the wire when its slot comes (not queued in the pool)
      const mark = await this.pacing(rate).slot(driver.connectionFree ? () => driver.connectionFree!() : undefined);
      if (this.halted.has(c.id)) {
        mark.settle();
        unsent.push(...rows.slice(i).map((r) => r.id));
        break;
      }
      inflight.push(
        driver.send(message).then(
          (outcome) => {
            mark.settle();
            return { row, outcome, at: new Date() };
          },
          (err: unknown) => {
            mark.settle();
            // the driver threw (not an SMTP answer): the outcome is unknown, the row stays `sending`
            this.ctx.log.error({ err, rowId: row.id, campaignId: c.id }, "e-mail send threw; the row is left to reconciliation");
            return null;
          },
        ),
      );
    }
    return { answers: Promise.all(inflight).then((all) => all.filter((r): r is RowResult => r !== null)), unsent };
  }
}

/** The batch's sends for the metrics (an address that unsubscribed meanwhile was never sent). */
function sendOutcomes(results: RowResult[], maxAttempts: number): SendOutcome[] {
  return results.flatMap(({ row, outcome }): SendOutcome[] => {
    if (outcome.kind === "opted_out") return [];
    if (outcome.kind === "accepted") return ["sent"];
    if (outcome.kind === "rejected" || row.attempts + 1 >= maxAttempts) return ["failed"];
    return ["retry"];
  });
}
