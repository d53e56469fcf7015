import { channel, type SessionStatus } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { notify } from "../core/pg-listener.js";
import { rooms } from "../core/realtime.js";
import { presentSession, presentWhatsapp } from "../domains/whatsapp/presenter.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { DriverEvents, OutgoingCheck, WhatsappDriver } from "./driver.js";
import { SandboxDriver } from "./sandbox-driver.js";
import { channelSink } from "./sink.js";
import { answerCall, CALLS_CHANNEL, callsWaiting, claimCalls, DriverCallClient, sweepCalls, type DriverCallRow } from "./driver-calls.js";
import { runDriverAction, type DriverAction, type DriverActionArgs, type DriverActionResult, DRIVER_ACTIONS } from "./driver-actions.js";
import {
  claimLease,
  connectionRoute,
  fenced,
  LeaseLostError,
  type LeaseFence,
  RELEASED_CHANNEL,
  HEARTBEAT_MS,
  heldWithOutbox,
  newOwnerId,
  releaseAll,
  releaseGoneOwners,
  releaseLease,
  renewLeases,
  unownedConnected,
} from "./ownership.js";

export type DriverFactory = (
  ctx: AppContext,
  input: { companyId: number; whatsappId: number; events: DriverEvents; resume: boolean; pairingNumber?: string; fence?: LeaseFence },
) => WhatsappDriver;

/** Drivers by provider; the Baileys and Cloud API drivers register here when they exist. */
const factories = new Map<string, DriverFactory>([
  ["sandbox", (ctx, i) => new SandboxDriver(ctx, i.companyId, i.whatsappId, i.events, i.resume, i.fence)],
]);

export function registerDriverFactory(provider: string, factory: DriverFactory): void {
  factories.set(provider, factory);
}

/**
 * A provider's checks before a message is stored, for a process that does not run the connection (the
 * message goes through the outbox): the same refusals as the driver's own `precheck`, from the database.
 */
export type RemotePrecheck = (ctx: AppContext, companyId: number, whatsappId: number, to: string, outgoing?: OutgoingCheck) => Promise<void>;
const remotePrechecks = new Map<string, RemotePrecheck>();

export function registerRemotePrecheck(provider: string, check: RemotePrecheck): void {
  remotePrechecks.set(provider, check);
}

export function supportedProviders(): string[] {
  return [...factories.keys()];
}

export type SendTarget =
  | { kind: "local"; driver: WhatsappDriver; expiresTicket: number }
  | { kind: "remote"; expiresTicket: number; precheck?: (to: string, outgoing?: OutgoingCheck) => Promise<void> };

/** At shutdown, how long the forwarded calls this process already took may take to finish. */
const STOP_CALLS_WAIT_MS = 5000;

/** How often a process that runs drivers checks its leases and its connections' outboxes. */
export const OUTBOX_POLL_MS = 500;

/**
 * Owns the running drivers of this process: starts those of CONNECTED connections on server start,
 * starts/restarts/stops sessions on request, and turns driver events into session updates, the
 * inbound pipeline and ack updates.
 *
 * With several server processes on one database, a connection's driver runs only in the process that
 * holds its lease (connection_owners, see ownership.ts). Another process that must send on it stores
 * the message as `queued`; the owner picks it up from the outbox within OUTBOX_POLL_MS and sends it once.
 */
export class ChannelManager {
  private readonly drivers = new Map<number, WhatsappDriver>();
  readonly ownerId = newOwnerId();
  private heartbeat: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly draining = new Set<number>();
  private readonly calls: DriverCallClient;
  private runningCalls: Promise<void> | null = null;
  private callsAgain = false;
  private listening: Promise<void> | null = null;
  /** Set by stopAll (shutdown): no session starts and no forwarded call is taken from then on. */
  private stopping = false;

  constructor(private readonly ctx: AppContext) {
    this.calls = new DriverCallClient(ctx);
  }

  /** Whether this process runs WhatsApp sessions (ROLE worker or all). */
  private get runsSessions(): boolean {
    return this.ctx.config.runSessions && !this.stopping;
  }

  get(whatsappId: number): WhatsappDriver | undefined {
    return this.drivers.get(whatsappId);
  }

  /** The running, connected driver of a connection of `companyId` in this process, or ERR_WAPP_NOT_INITIALIZED. */
  async requireConnected(companyId: number, whatsappId: number | null): Promise<WhatsappDriver> {
    if (whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
    const row = await whatsappRepo.findWhatsapp(this.ctx.sql, companyId, whatsappId);
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    const driver = this.drivers.get(whatsappId);
    if (!driver || driver.companyId !== companyId || row.status !== "CONNECTED") {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
    }
    return driver;
  }

  /**
   * A driver-direct action (deleting a sent message, read receipts, a number check, the sandbox phone, a
   * session start) on the process that runs the connection: here when this process runs it, otherwise
   * carried to the lease holder (driver-calls.ts) and its answer or error returned. A start of a session
   * nobody runs goes to any process that runs sessions (this one, unless it is a web process).
   * ERR_WAPP_NOT_INITIALIZED when no live process runs a connection the action needs running.
   */
  async act<A extends DriverAction>(companyId: number, whatsappId: number | null, action: A, args: DriverActionArgs<A>): Promise<DriverActionResult<A>> {
    if (whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
    const spec = DRIVER_ACTIONS[action];
    const route = await connectionRoute(this.ctx.sql, companyId, whatsappId, this.ownerId);
    if (!route) throw new AppError("ERR_NO_WAPP_FOUND");
    const local = this.drivers.get(whatsappId);
    if (route.owner === "me" || (local && route.owner !== "other")) return runDriverAction(this.ctx, this, { companyId, whatsappId, action, args });
    if (route.owner === "other") {
      return this.calls.call<DriverActionResult<A>>(companyId, whatsappId, action, args as Record<string, unknown>, { needsOwner: true });
    }
    if (!spec.startsSession) throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
    if (this.runsSessions) return runDriverAction(this.ctx, this, { companyId, whatsappId, action, args });
    return this.calls.call<DriverActionResult<A>>(companyId, whatsappId, action, args as Record<string, unknown>, { needsOwner: false });
  }

  /**
   * Where a message on this connection is sent from: this process's driver, or (queued) the process
   * that runs it. ERR_WAPP_NOT_INITIALIZED when it is not connected or no live process runs it.
   */
  async sendTarget(companyId: number, whatsappId: number | null): Promise<SendTarget> {
    if (whatsappId === null) throw new AppError("ERR_NO_WAPP_FOUND");
    const route = await connectionRoute(this.ctx.sql, companyId, whatsappId, this.ownerId);
    if (!route) throw new AppError("ERR_NO_WAPP_FOUND");
    const notConnected = () => new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
    if (route.status !== "CONNECTED") throw notConnected();
    const driver = this.drivers.get(whatsappId);
    if (driver && driver.companyId === companyId && route.owner !== "other") return { kind: "local", driver, expiresTicket: route.expires_ticket };
    if (route.owner === "other") {
      const check = remotePrechecks.get(route.provider);
      const precheck = check ? (to: string, outgoing?: OutgoingCheck) => check(this.ctx, companyId, whatsappId, to, outgoing) : undefined;
      return { kind: "remote", expiresTicket: route.expires_ticket, precheck };
    }
    throw notConnected();
  }

  /**
   * A connection that should run (a synced official number, a session found CONNECTED and free): started
   * here where sessions run, otherwise announced so a process that runs sessions takes it at once.
   */
  async resumeSoon(companyId: number, whatsappId: number, provider: string): Promise<void> {
    if (this.runsSessions) {
      await this.start(companyId, whatsappId, provider, true);
      return;
    }
    await notify(this.ctx.sql, RELEASED_CHANNEL, String(whatsappId));
  }

  /** Server start: the connected sessions nobody runs (the others belong to live processes). */
  async startConnected(): Promise<void> {
    this.stopping = false;
    await this.listenForWork();
    if (!this.runsSessions) return;
    this.startTimers();
    const freed = await releaseGoneOwners(this.ctx.sql, this.ownerId);
    if (freed) this.ctx.log.info({ freed }, "took over the connections of a server process of this host that is gone");
    for (const w of await unownedConnected(this.ctx.sql)) {
      if (this.drivers.has(w.id) || !factories.has(w.provider)) continue;
      await this.start(w.company_id, w.id, w.provider, true).catch((err: unknown) => this.failedResume(err, w.company_id, w.id));
    }
  }

  /** A session that could not be resumed: logged; the heartbeat tries again while it stays CONNECTED and free. */
  private failedResume(err: unknown, companyId: number, whatsappId: number): void {
    this.ctx.log.warn({ err, companyId, whatsappId }, "could not resume a connected session; the heartbeat tries again");
  }

  /** Stopping a driver that failed to stop cleanly: its socket may linger, but the driver is dropped either way. */
  private failedStop(err: unknown, whatsappId: number): void {
    this.ctx.log.warn({ err, whatsappId }, "a driver did not stop cleanly");
  }

  /**
   * Starts (or restarts) a session; `resume` reuses a stored pairing instead of showing a QR code.
   * A resume only takes a free lease; an explicit start (an administrator's action) takes the lease
   * over from another process, which stops its driver within OUTBOX_POLL_MS.
   */
  async start(companyId: number, whatsappId: number, provider: string, resume = false, pairingNumber?: string): Promise<WhatsappDriver> {
    const factory = factories.get(provider);
    if (!factory) throw new AppError("ERR_VALIDATION", `Provider ${provider} is not available yet`);
    if (pairingNumber && provider !== "baileys") throw new AppError("ERR_VALIDATION", "Conexão por número disponível apenas para conexões Baileys");
    // a web process runs no session: act() carries a start to a process that does
    if (!this.runsSessions) throw new AppError("ERR_WAPP_NOT_INITIALIZED", "Este servidor não executa sessões do WhatsApp");
    const fence = await claimLease(this.ctx.sql, whatsappId, this.ownerId, !resume);
    if (!fence) throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão está sendo executada por outro servidor");
    this.startTimers();
    await channelSink().failInterrupted(this.ctx, whatsappId);
    const previous = this.drivers.get(whatsappId);
    if (previous) await previous.stop().catch((err: unknown) => this.failedStop(err, whatsappId));
    const driver = factory(this.ctx, { companyId, whatsappId, resume, pairingNumber, fence, events: this.eventsFor(companyId, whatsappId, fence) });
    this.drivers.set(whatsappId, driver);
    await driver.connect();
    return driver;
  }

  /**
   * Ends a session. Run here: the driver logs out. Run by another process: the lease is taken over
   * (that process stops its driver without logging out) and the session is marked DISCONNECTED.
   */
  async disconnect(companyId: number, whatsappId: number): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    this.drivers.delete(whatsappId);
    if (driver) await driver.disconnect();
    else {
      // the lease taken over (a new epoch) fences the former holder, whose driver stops within OUTBOX_POLL_MS
      const fence = await claimLease(this.ctx.sql, whatsappId, this.ownerId, true);
      await this.setSession(companyId, whatsappId, "DISCONNECTED", "", undefined, fence ?? undefined);
    }
    await releaseLease(this.ctx.sql, whatsappId, this.ownerId);
  }

  /** Forgets a deleted connection's driver without touching its (gone) row. */
  async forget(whatsappId: number): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    this.drivers.delete(whatsappId);
    if (driver) await driver.stop().catch((err: unknown) => this.failedStop(err, whatsappId));
    // a lease left behind expires by itself (it is not renewed any more)
    await releaseLease(this.ctx.sql, whatsappId, this.ownerId).catch((err: unknown) =>
      this.ctx.log.warn({ err, whatsappId }, "could not release a deleted connection's lease; it expires by itself"),
    );
  }

  /** Stops every driver of this process (server shutdown) and frees their leases for other processes. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    this.stopTimers();
    // forwarded calls already taken are finished (their callers get an answer) before the drivers stop;
    // waiting ones stay for the process that takes the connections over
    if (this.runningCalls) {
      await Promise.race([this.runningCalls, new Promise((r) => setTimeout(r, STOP_CALLS_WAIT_MS).unref())]);
    }
    const all = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(all.map((d) => d.stop().catch((err: unknown) => this.failedStop(err, d.whatsappId))));
    const released = await releaseAll(this.ctx.sql, this.ownerId).catch((err: unknown) => {
      this.ctx.log.warn({ err }, "could not release this process's leases at shutdown; they expire by themselves");
      return [] as number[];
    });
    // the other processes that run sessions take the freed connections at once (not at their next heartbeat)
    if (released.length) {
      await notify(this.ctx.sql, RELEASED_CHANNEL, released.join(",")).catch((err: unknown) =>
        this.ctx.log.warn({ err, released }, "could not announce the freed connections; other processes take them at their next heartbeat"),
      );
    }
  }

  /**
   * LISTEN for work other processes announce: forwarded calls (run those of connections held here, and
   * session starts where sessions run) and freed leases (taken over at once where sessions run).
   */
  private listenForWork(): Promise<void> {
    this.listening ??= (async () => {
      // a web process holds no lease and starts no session: it has no call to take
      if (!this.ctx.config.runSessions) return;
      await this.ctx.listener.listen(CALLS_CHANNEL, () => void this.runCalls());
      await this.ctx.listener.listen(RELEASED_CHANNEL, () => {
        if (this.runsSessions) void this.tick().catch((err: unknown) => this.ctx.log.error({ err }, "taking over freed connections failed; the heartbeat tries again"));
      });
    })();
    return this.listening;
  }

  /** Claims and runs the forwarded calls this process may run, each answered (result or error code). */
  async runCalls(): Promise<void> {
    if (this.stopping) return;
    if (this.runningCalls) {
      this.callsAgain = true;
      return;
    }
    const run = this.runCallsNow();
    this.runningCalls = run;
    await run;
  }

  private async runCallsNow(): Promise<void> {
    try {
      do {
        this.callsAgain = false;
        const calls = await claimCalls(this.ctx.sql, this.ownerId, this.runsSessions);
        // in order (a sandbox phone's messages keep theirs: each driver queues what it receives), answered as each ends
        await Promise.all(calls.map((c) => this.runCall(c)));
        if (calls.length) this.callsAgain = true;
      } while (this.callsAgain && !this.stopping);
    } catch (err) {
      this.ctx.log.error({ err }, "forwarded connection actions: a run failed; the next announcement or poll tries again");
    } finally {
      this.runningCalls = null;
    }
  }

  private async runCall(call: DriverCallRow): Promise<void> {
    const action = call.action as DriverAction;
    let outcome: { result: unknown } | { error: unknown };
    if (!(action in DRIVER_ACTIONS)) outcome = { error: new AppError("ERR_VALIDATION", `Ação desconhecida: ${call.action}`) };
    else {
      outcome = await runDriverAction(this.ctx, this, { companyId: call.company_id, whatsappId: call.whatsapp_id, action, args: call.args as never }).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    }
    if ("error" in outcome && !(outcome.error instanceof AppError)) {
      this.ctx.log.error({ err: outcome.error, callId: call.id, action: call.action, whatsappId: call.whatsapp_id }, "a forwarded connection action failed");
    }
    await answerCall(this.ctx.sql, call.id, outcome).catch((err: unknown) =>
      this.ctx.log.error({ err, callId: call.id, action: call.action }, "could not answer a forwarded connection action; its caller times out"),
    );
  }

  private startTimers(): void {
    if (!this.heartbeat) {
      this.heartbeat = setInterval(
        () => void this.tick().catch((err: unknown) => this.ctx.log.error({ err }, "connection heartbeat failed; the next one tries again")),
        HEARTBEAT_MS,
      );
      this.heartbeat.unref();
    }
    if (!this.poller) {
      this.poller = setInterval(() => void this.poll(), OUTBOX_POLL_MS);
      this.poller.unref();
    }
  }

  private stopTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poller) clearInterval(this.poller);
    this.heartbeat = this.poller = null;
  }

  /** A driver whose lease another process took: stopped here without touching the session. */
  private async lose(whatsappId: number, fence?: LeaseFence): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    // a former driver's late failure must not stop the one that replaced it
    if (fence && driver?.fence && driver.fence.epoch !== fence.epoch) return;
    this.drivers.delete(whatsappId);
    if (driver) await driver.stop().catch((err: unknown) => this.failedStop(err, whatsappId));
  }

  /** Every HEARTBEAT_MS: renew the leases, drop the lost ones, start connected sessions nobody runs. */
  async tick(): Promise<void> {
    if (!this.runsSessions) return;
    await sweepCalls(this.ctx.sql).catch((err: unknown) => this.ctx.log.warn({ err }, "could not delete old forwarded connection actions; the next heartbeat tries again"));
    const held = await renewLeases(this.ctx.sql, this.ownerId);
    for (const id of [...this.drivers.keys()]) if (!held.has(id)) await this.lose(id);
    for (const w of await unownedConnected(this.ctx.sql)) {
      if (this.drivers.has(w.id) || !factories.has(w.provider)) continue;
      await this.start(w.company_id, w.id, w.provider, true).catch((err: unknown) => this.failedResume(err, w.company_id, w.id));
    }
  }

  /** Every OUTBOX_POLL_MS while drivers run here: lost leases, and messages queued by other processes. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      // a forwarded call whose announcement was lost (the LISTEN connection reconnected) waits at most one poll
      if (await callsWaiting(this.ctx.sql)) void this.runCalls();
      if (this.drivers.size === 0) return;
      const held = await heldWithOutbox(this.ctx.sql, this.ownerId);
      const ids = new Set(held.map((h) => h.whatsapp_id));
      for (const id of [...this.drivers.keys()]) if (!ids.has(id)) await this.lose(id);
      for (const h of held) if (h.queued && this.drivers.has(h.whatsapp_id)) void this.drain(h.whatsapp_id);
    } catch (err) {
      this.ctx.log.warn({ err }, "outbox poll failed; the next poll tries again");
    } finally {
      this.polling = false;
    }
  }

  /** Sends a connection's queued messages in order, each once (claimed before sending). */
  private async drain(whatsappId: number): Promise<void> {
    if (this.draining.has(whatsappId)) return;
    this.draining.add(whatsappId);
    try {
      for (;;) {
        const driver = this.drivers.get(whatsappId);
        if (!driver) return;
        // fenced: a process that lost the lease claims nothing (its driver stops at the next poll)
        if (!driver.fence) return;
        const batch = await channelSink().claimQueued(this.ctx.sql, driver.fence, 20);
        if (!batch.length) return;
        // a failed send is recorded on its message (failed, with the error) by deliverQueued
        for (const m of batch) {
          await channelSink().deliverQueued(this.ctx, driver, m.company_id, m.id).catch((err: unknown) =>
            this.ctx.log.warn({ err, companyId: m.company_id, whatsappId, messageId: m.id }, "queued message not sent"),
          );
        }
      }
    } catch (err) {
      // runs unawaited (void this.drain): an escaping error would end the process; the next poll retries
      this.ctx.log.error({ err, whatsappId }, "outbox drain failed; the next poll tries again");
    } finally {
      this.draining.delete(whatsappId);
    }
  }

  /** Ack from a driver or a durable ack job. */
  async handleAck(companyId: number, whatsappId: number, providerId: string, ack: number): Promise<void> {
    await channelSink().ack(this.ctx, companyId, whatsappId, providerId, ack);
  }

  /**
   * A session's status as its driver reports it, written only while the driver's lease is current (the
   * fence): a former holder's late report is dropped (logged) and its driver stopped.
   */
  private async setSession(companyId: number, whatsappId: number, status: SessionStatus, qrcode: string, number?: string, fence?: LeaseFence): Promise<void> {
    const change = { status, qrcode, ...(number !== undefined ? { number } : {}), ...(status === "CONNECTED" ? { retries: 0 } : {}) };
    try {
      if (fence) await fenced(this.ctx.sql, fence, (tx) => whatsappRepo.updateWhatsapp(tx, companyId, whatsappId, change));
      else await whatsappRepo.updateWhatsapp(this.ctx.sql, companyId, whatsappId, change);
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      this.ctx.log.warn({ companyId, whatsappId, status, epoch: err.fence.epoch }, "session status of a connection this process no longer holds: not written");
      await this.lose(whatsappId, err.fence);
      return;
    }
    const row = await whatsappRepo.findWhatsapp(this.ctx.sql, companyId, whatsappId);
    if (!row) return;
    const room = rooms.company(companyId);
    this.ctx.realtime.emit(room, channel.whatsappSession(companyId), { action: "update", session: presentSession(row) });
    this.ctx.realtime.emit(room, channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
  }

  private eventsFor(companyId: number, whatsappId: number, fence: LeaseFence): DriverEvents {
    return {
      qr: (qrcode) => this.setSession(companyId, whatsappId, "qrcode", qrcode, undefined, fence),
      // While PAIRING the qrcode column holds the pairing code (presented as `pairingCode`).
      status: (status, info) => this.setSession(companyId, whatsappId, status, status === "PAIRING" ? (info?.pairingCode ?? "") : "", info?.number, fence),
      message: (message) => channelSink().message(this.ctx, { companyId, whatsappId }, message),
      ack: (providerId, ack) => channelSink().ack(this.ctx, companyId, whatsappId, providerId, ack),
      edit: (providerId, body) => channelSink().edit(this.ctx, companyId, whatsappId, providerId, body),
      revoke: (providerId) => channelSink().revoke(this.ctx, companyId, whatsappId, providerId),
    };
  }
}

const managers = new WeakMap<AppContext, ChannelManager>();

/** The channel manager of an app (one per process). */
export function channels(ctx: AppContext): ChannelManager {
  let m = managers.get(ctx);
  if (!m) {
    m = new ChannelManager(ctx);
    managers.set(ctx, m);
  }
  return m;
}
