import { channel, type SessionStatus } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { rooms } from "../core/realtime.js";
import { presentSession, presentWhatsapp } from "../domains/whatsapp/presenter.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { DriverEvents, OutgoingCheck, WhatsappDriver } from "./driver.js";
import { applyAck, applyEdit, applyRevoke, processInbound } from "./inbound.js";
import { SandboxDriver } from "./sandbox-driver.js";
import { claimQueued, deliverQueued, failInterrupted } from "../domains/messages/send-message.js";
import {
  claimLease,
  connectionRoute,
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
  input: { companyId: number; whatsappId: number; events: DriverEvents; resume: boolean; pairingNumber?: string },
) => WhatsappDriver;

/** Drivers by provider; the Baileys and Cloud API drivers register here when they exist. */
const factories = new Map<string, DriverFactory>([
  ["sandbox", (ctx, i) => new SandboxDriver(ctx, i.companyId, i.whatsappId, i.events, i.resume)],
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

  constructor(private readonly ctx: AppContext) {}

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

  /** Server start: the connected sessions nobody runs (the others belong to live processes). */
  async startConnected(): Promise<void> {
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
    if (!(await claimLease(this.ctx.sql, whatsappId, this.ownerId, !resume))) {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão está sendo executada por outro servidor");
    }
    this.startTimers();
    await failInterrupted(this.ctx, whatsappId);
    const previous = this.drivers.get(whatsappId);
    if (previous) await previous.stop().catch((err: unknown) => this.failedStop(err, whatsappId));
    const driver = factory(this.ctx, { companyId, whatsappId, resume, pairingNumber, events: this.eventsFor(companyId, whatsappId) });
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
      await claimLease(this.ctx.sql, whatsappId, this.ownerId, true);
      await this.setSession(companyId, whatsappId, "DISCONNECTED", "");
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
    this.stopTimers();
    const all = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(all.map((d) => d.stop().catch((err: unknown) => this.failedStop(err, d.whatsappId))));
    await releaseAll(this.ctx.sql, this.ownerId).catch((err: unknown) =>
      this.ctx.log.warn({ err }, "could not release this process's leases at shutdown; they expire by themselves"),
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
  private async lose(whatsappId: number): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    this.drivers.delete(whatsappId);
    if (driver) await driver.stop().catch((err: unknown) => this.failedStop(err, whatsappId));
  }

  /** Every HEARTBEAT_MS: renew the leases, drop the lost ones, start connected sessions nobody runs. */
  async tick(): Promise<void> {
    const held = await renewLeases(this.ctx.sql, this.ownerId);
    for (const id of [...this.drivers.keys()]) if (!held.has(id)) await this.lose(id);
    for (const w of await unownedConnected(this.ctx.sql)) {
      if (this.drivers.has(w.id) || !factories.has(w.provider)) continue;
      await this.start(w.company_id, w.id, w.provider, true).catch((err: unknown) => this.failedResume(err, w.company_id, w.id));
    }
  }

  /** Every OUTBOX_POLL_MS while drivers run here: lost leases, and messages queued by other processes. */
  async poll(): Promise<void> {
    if (this.polling || this.drivers.size === 0) return;
    this.polling = true;
    try {
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
        const batch = await claimQueued(this.ctx.sql, whatsappId, 20);
        if (!batch.length) return;
        // a failed send is recorded on its message (failed, with the error) by deliverQueued
        for (const m of batch) {
          await deliverQueued(this.ctx, driver, m.company_id, m.id).catch((err: unknown) =>
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
    await applyAck(this.ctx, companyId, whatsappId, providerId, ack);
  }

  private async setSession(companyId: number, whatsappId: number, status: SessionStatus, qrcode: string, number?: string): Promise<void> {
    await whatsappRepo.updateWhatsapp(this.ctx.sql, companyId, whatsappId, {
      status,
      qrcode,
      ...(number !== undefined ? { number } : {}),
      ...(status === "CONNECTED" ? { retries: 0 } : {}),
    });
    const row = await whatsappRepo.findWhatsapp(this.ctx.sql, companyId, whatsappId);
    if (!row) return;
    const room = rooms.company(companyId);
    this.ctx.realtime.emit(room, channel.whatsappSession(companyId), { action: "update", session: presentSession(row) });
    this.ctx.realtime.emit(room, channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
  }

  private eventsFor(companyId: number, whatsappId: number): DriverEvents {
    return {
      qr: (qrcode) => this.setSession(companyId, whatsappId, "qrcode", qrcode),
      // While PAIRING the qrcode column holds the pairing code (presented as `pairingCode`).
      status: (status, info) => this.setSession(companyId, whatsappId, status, status === "PAIRING" ? (info?.pairingCode ?? "") : "", info?.number),
      message: (message) => processInbound(this.ctx, { companyId, whatsappId }, message),
      ack: (providerId, ack) => applyAck(this.ctx, companyId, whatsappId, providerId, ack),
      edit: (providerId, body) => applyEdit(this.ctx, companyId, whatsappId, providerId, body),
      revoke: (providerId) => applyRevoke(this.ctx, companyId, whatsappId, providerId),
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
