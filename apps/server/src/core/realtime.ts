import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { Server, type Socket } from "socket.io";
import { CLIENT_EVENTS, isAdmin, LIMITS } from "@atende/shared";
import type { Sql } from "../db/sql.js";
import { loadActor, type RequestActor } from "./actor.js";
import type { TokenService } from "./tokens.js";

export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  user: (userId: number) => `user:${userId}`,
  /** Company users with the given profile or higher (admins, supervisors). */
  profile: (companyId: number, profile: string) => `company:${companyId}:profile:${profile}`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  /** Users with allTicket enabled: they see pending tickets without a queue. */
  allTicket: (companyId: number) => `company:${companyId}:allTicket`,
  /** The platform operators (super flag). */
  supers: () => "supers",
};

/**
 * Rooms that ticket audiences (domains/tickets/events.ts) rely on beyond profile and queues: super
 * users see tickets as admins do, and allTicket users see queue-less pending tickets.
 */
function ticketViewRooms(actor: RequestActor): string[] {
  const list: string[] = [];
  if (isAdmin(actor)) list.push(rooms.profile(actor.companyId, "admin"));
  if (actor.allTicket === "enable") list.push(rooms.allTicket(actor.companyId));
  return list;
}

export type SocketWithActor = Socket & { data: { actor: RequestActor } };
type ConnectionHandler = (socket: SocketWithActor) => void;

/**
 * socket.io on the HTTP server: authenticated with the access token, each socket joins its company,
 * user and profile rooms; domains emit to rooms through `emit`. With REDIS_URL set, the Redis adapter
 * carries emits between server processes.
 */
export class Realtime {
  readonly io: Server;
  private readonly handlers: ConnectionHandler[] = [];
  private redisClients: { quit(): Promise<unknown> }[] = [];

  constructor(
    httpServer: HttpServer,
    private readonly sql: Sql,
    tokens: TokenService,
  ) {
    this.io = new Server(httpServer, {
      path: "/socket.io",
      pingInterval: LIMITS.socketPingMs,
      pingTimeout: LIMITS.socketPingMs,
      serveClient: false,
      cors: { origin: true, credentials: true },
    });
    this.io.use(async (socket, next) => {
      const raw = (socket.handshake.auth as { token?: string } | undefined)?.token ?? socket.handshake.query.token;
      const token = typeof raw === "string" ? raw.replace(/^Bearer\s+/i, "") : "";
      const claims = token ? await tokens.verifyAccess(token) : null;
      const actor = claims ? await loadActor(this.sql, claims.userId, claims.companyId).catch(() => null) : null;
      if (!actor || actor.tokenVersion !== claims?.tokenVersion) return next(new Error("ERR_SESSION_EXPIRED"));
      socket.data.actor = actor;
      next();
    });
    this.io.on("connection", (raw) => {
      const socket = raw as SocketWithActor;
      const actor = socket.data.actor;
      void socket.join([rooms.company(actor.companyId), rooms.user(actor.id), rooms.profile(actor.companyId, actor.profile)]);
      if (actor.super) void socket.join(rooms.supers());
      for (const q of actor.queueIds) void socket.join(rooms.queue(actor.companyId, q));
      void socket.join(ticketViewRooms(actor));
      socket.on(CLIENT_EVENTS.joinNotification, () => undefined);
      socket.on(CLIENT_EVENTS.userStatus, () => {
        void this.sql.exec("UPDATE users SET online = true, last_seen_at = now() WHERE id = $1 AND company_id = $2", [
          actor.id,
          actor.companyId,
        ]);
      });
      for (const handler of this.handlers) handler(socket);
    });
  }

  async useRedis(url: string): Promise<void> {
    const pub = createClient({ url });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    this.redisClients = [pub, sub];
    this.io.adapter(createAdapter(pub, sub));
  }

  /** Lets a domain react to each authenticated socket (join extra rooms, handle client events). */
  onConnection(handler: ConnectionHandler): void {
    this.handlers.push(handler);
  }

  /** Emits `event` with `payload` to every socket in one or more rooms. */
  emit(room: string | string[], event: string, payload: unknown): void {
    this.io.to(room).emit(event, payload);
  }

  /**
   * Moves a user's sockets (on every process) to the profile and queue rooms of their current data,
   * after a change of profile or queues; a deleted user's sockets are disconnected. Uses broadcast
   * room operations, so it never waits for other processes to answer.
   */
  async refreshUser(userId: number, companyId: number): Promise<void> {
    const actor = await loadActor(this.sql, userId, companyId);
    const target = this.io.in(rooms.user(userId));
    if (!actor) {
      target.disconnectSockets(true);
      return;
    }
    const queues = await this.sql.many<{ id: number }>("SELECT id FROM queues WHERE company_id = $1", [companyId]);
    target.socketsLeave([
      rooms.allTicket(companyId),
      ...["admin", "supervisor", "user"].map((p) => rooms.profile(companyId, p)),
      ...queues.map((q) => rooms.queue(companyId, q.id)),
    ]);
    target.socketsJoin([
      rooms.profile(companyId, actor.profile),
      ...ticketViewRooms(actor),
      ...actor.queueIds.map((q) => rooms.queue(companyId, q)),
    ]);
    for (const s of await this.io.in(rooms.user(userId)).local.fetchSockets()) s.data.actor = actor;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
    await Promise.all(this.redisClients.map((c) => c.quit().catch(() => undefined)));
  }
}
