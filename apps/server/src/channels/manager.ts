import { channel, type SessionStatus } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { rooms } from "../core/realtime.js";
import { presentSession, presentWhatsapp } from "../domains/whatsapp/presenter.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { DriverEvents, WhatsappDriver } from "./driver.js";
import { applyAck, applyEdit, applyRevoke, processInbound } from "./inbound.js";
import { SandboxDriver } from "./sandbox-driver.js";

export type DriverFactory = (ctx: AppContext, input: { companyId: number; whatsappId: number; events: DriverEvents; resume: boolean }) => WhatsappDriver;

/** Drivers by provider; the Baileys and Cloud API drivers register here when they exist. */
const factories = new Map<string, DriverFactory>([
  ["sandbox", (ctx, i) => new SandboxDriver(ctx, i.companyId, i.whatsappId, i.events, i.resume)],
]);

export function registerDriverFactory(provider: string, factory: DriverFactory): void {
  factories.set(provider, factory);
}

export function supportedProviders(): string[] {
  return [...factories.keys()];
}

/**
 * Owns the running drivers of this process: starts those of CONNECTED connections on server start,
 * starts/restarts/stops sessions on request, and turns driver events into session updates, the
 * inbound pipeline and ack updates.
 */
export class ChannelManager {
  private readonly drivers = new Map<number, WhatsappDriver>();

  constructor(private readonly ctx: AppContext) {}

  get(whatsappId: number): WhatsappDriver | undefined {
    return this.drivers.get(whatsappId);
  }

  /** The running, connected driver of a connection of `companyId`, or ERR_WAPP_NOT_INITIALIZED. */
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

  async startConnected(): Promise<void> {
    for (const w of await whatsappRepo.connectedWhatsapps(this.ctx.sql)) {
      if (this.drivers.has(w.id) || !factories.has(w.provider)) continue;
      await this.start(w.company_id, w.id, w.provider, true).catch(() => undefined);
    }
  }

  /** Starts (or restarts) a session; `resume` reuses a stored pairing instead of showing a QR code. */
  async start(companyId: number, whatsappId: number, provider: string, resume = false): Promise<WhatsappDriver> {
    const factory = factories.get(provider);
    if (!factory) throw new AppError("ERR_VALIDATION", `Provider ${provider} is not available yet`);
    const previous = this.drivers.get(whatsappId);
    if (previous) await previous.stop().catch(() => undefined);
    const driver = factory(this.ctx, { companyId, whatsappId, resume, events: this.eventsFor(companyId, whatsappId) });
    this.drivers.set(whatsappId, driver);
    await driver.connect();
    return driver;
  }

  async disconnect(companyId: number, whatsappId: number): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    this.drivers.delete(whatsappId);
    if (driver) await driver.disconnect();
    else await this.setSession(companyId, whatsappId, "DISCONNECTED", "");
  }

  /** Forgets a deleted connection's driver without touching its (gone) row. */
  async forget(whatsappId: number): Promise<void> {
    const driver = this.drivers.get(whatsappId);
    this.drivers.delete(whatsappId);
    if (driver) await driver.stop().catch(() => undefined);
  }

  async stopAll(): Promise<void> {
    const all = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(all.map((d) => d.stop().catch(() => undefined)));
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
      status: (status, info) => this.setSession(companyId, whatsappId, status, "", info?.number),
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
