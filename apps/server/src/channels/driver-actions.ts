import type { MediaType } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { WhatsappDriver } from "./driver.js";
import type { InboundResult } from "./sink.js";
import { SandboxDriver } from "./sandbox-driver.js";

/** What an action needs of the process's channel manager (manager.ts ChannelManager). */
export interface DriverHost {
  get(whatsappId: number): WhatsappDriver | undefined;
  requireConnected(companyId: number, whatsappId: number | null): Promise<WhatsappDriver>;
  start(companyId: number, whatsappId: number, provider: string, resume?: boolean, pairingNumber?: string): Promise<WhatsappDriver>;
  disconnect(companyId: number, whatsappId: number): Promise<void>;
}

/**
 * The driver-direct actions: what needs the live driver of a connection, run on the process that runs
 * it (ChannelManager.act, here or carried there through driver-calls.ts). Arguments and results are
 * JSON (they cross processes in `driver_calls`); files travel as base64.
 */
export interface DriverActionTypes {
  /** Deletes a sent message for everyone on WhatsApp. */
  deleteMessage: { args: { to: string; providerId: string }; result: null };
  /** Tells the contact's phone their messages were read (a courtesy: callers log its failure). */
  markRead: { args: { to: string }; result: null };
  /** The number as WhatsApp knows it, or null when it has none; `supported` false when the driver cannot tell. */
  checkNumber: { args: { number: string }; result: { supported: boolean; known: string | null } };
  /** A customer's message on the sandbox phone, through the real inbound pipeline. */
  sandboxInbound: {
    args: { number: string; name: string; body: string; mediaType: MediaType; media?: { base64: string; fileName: string; mimetype: string }; quotedProviderId?: string };
    result: InboundResult;
  };
  /** The sandbox phone's scan: starts the session when nobody runs it, then pairs it. */
  sandboxScan: { args: { provider: string }; result: null };
  /** The sandbox phone opened a chat: the agents' messages so far are read. */
  sandboxRead: { args: { number?: string }; result: { updated: number } };
  /** An administrator's start or restart of a session (a QR code, a pairing code, or a resumed pairing). */
  startSession: { args: { provider: string; pairingNumber?: string }; result: null };
  /** An administrator's stop: the driver logs out. */
  stopSession: { args: Record<string, never>; result: null };
}

export type DriverAction = keyof DriverActionTypes;
export type DriverActionArgs<A extends DriverAction> = DriverActionTypes[A]["args"];
export type DriverActionResult<A extends DriverAction> = DriverActionTypes[A]["result"];

/**
 * `startsSession`: with no process running the connection, the action may run on any process that runs
 * sessions (it starts one); otherwise it needs the running connection (ERR_WAPP_NOT_INITIALIZED).
 */
export const DRIVER_ACTIONS: Record<DriverAction, { startsSession: boolean }> = {
  deleteMessage: { startsSession: false },
  markRead: { startsSession: false },
  checkNumber: { startsSession: false },
  sandboxInbound: { startsSession: false },
  sandboxScan: { startsSession: true },
  sandboxRead: { startsSession: false },
  startSession: { startsSession: true },
  stopSession: { startsSession: false },
};

interface Call<A extends DriverAction> {
  companyId: number;
  whatsappId: number;
  action: A;
  args: DriverActionArgs<A>;
}

async function sandboxDriver(manager: DriverHost, companyId: number, whatsappId: number): Promise<SandboxDriver> {
  const driver = manager.get(whatsappId);
  if (!(driver instanceof SandboxDriver) || driver.companyId !== companyId || !driver.connected) {
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão sandbox não está conectada");
  }
  return driver;
}

/** Runs an action with this process's driver (the caller made sure this process runs, or may start, it). */
export async function runDriverAction<A extends DriverAction>(ctx: AppContext, manager: DriverHost, call: Call<A>): Promise<DriverActionResult<A>> {
  const { companyId, whatsappId } = call;
  const c = call as Call<DriverAction>;
  switch (c.action) {
    case "deleteMessage": {
      const a = c.args as DriverActionArgs<"deleteMessage">;
      const driver = await manager.requireConnected(companyId, whatsappId);
      try {
        await driver.deleteMessage(a.to, a.providerId);
      } catch (err) {
        ctx.log.warn({ err, companyId, whatsappId, providerId: a.providerId }, "the driver could not delete a sent message");
        throw new AppError("ERR_DELETE_WAPP_MSG", "Não foi possível apagar a mensagem");
      }
      return null as DriverActionResult<A>;
    }
    case "markRead": {
      const driver = await manager.requireConnected(companyId, whatsappId);
      await driver.markRead((c.args as DriverActionArgs<"markRead">).to);
      return null as DriverActionResult<A>;
    }
    case "checkNumber": {
      const driver = await manager.requireConnected(companyId, whatsappId);
      if (!driver.checkNumber) return { supported: false, known: null } as DriverActionResult<A>;
      try {
        return { supported: true, known: await driver.checkNumber((c.args as DriverActionArgs<"checkNumber">).number) } as DriverActionResult<A>;
      } catch (err) {
        ctx.log.warn({ err, companyId, whatsappId }, "the driver could not check a number");
        throw new AppError("ERR_WAPP_CHECK_CONTACT", "Não foi possível verificar o número no WhatsApp");
      }
    }
    case "sandboxInbound": {
      const a = c.args as DriverActionArgs<"sandboxInbound">;
      const driver = await sandboxDriver(manager, companyId, whatsappId);
      const media = a.media ? { data: Buffer.from(a.media.base64, "base64"), fileName: a.media.fileName, mimetype: a.media.mimetype } : undefined;
      const result = await driver.receive({ number: a.number, name: a.name, body: a.body, mediaType: a.mediaType, media, quotedProviderId: a.quotedProviderId });
      return result as DriverActionResult<A>;
    }
    case "sandboxScan": {
      let driver = manager.get(whatsappId);
      if (!(driver instanceof SandboxDriver)) driver = await manager.start(companyId, whatsappId, (c.args as DriverActionArgs<"sandboxScan">).provider);
      if (!(driver instanceof SandboxDriver) || driver.companyId !== companyId) throw new AppError("ERR_NO_WAPP_FOUND");
      if (!driver.connected) await driver.scan();
      return null as DriverActionResult<A>;
    }
    case "sandboxRead": {
      const driver = await sandboxDriver(manager, companyId, whatsappId);
      return { updated: await driver.phoneRead((c.args as DriverActionArgs<"sandboxRead">).number) } as DriverActionResult<A>;
    }
    case "startSession": {
      const a = c.args as DriverActionArgs<"startSession">;
      await manager.start(companyId, whatsappId, a.provider, false, a.pairingNumber);
      return null as DriverActionResult<A>;
    }
    case "stopSession": {
      if (!(await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND");
      await manager.disconnect(companyId, whatsappId);
      return null as DriverActionResult<A>;
    }
  }
  throw new AppError("ERR_VALIDATION", `Ação desconhecida: ${String(c.action)}`);
}
