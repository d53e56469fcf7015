import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { FastifyBaseLogger } from "fastify";
import { Server, type Socket } from "socket.io";
import { CLIENT_EVENTS, isAdmin, isOnline, LIMITS, type ErrorCode } from "@atende/shared";
import type { Sql } from "../db/sql.js";
import { authenticateAccessToken } from "./access.js";
import { afterCommit } from "./after-work.js";
import { loadActor, type RequestActor } from "./actor.js";
import { AppError } from "./errors.js";
import { closeRedis, connectRedis, type RedisClient } from "./redis-client.js";
import type { TokenService } from "./tokens.js";

export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  user: (userId: number) => `user:${userId}`,
  /** The sockets of one login session (table `sessions`): closed together when it ends. */
  session: (sessionId: string) => `session:${sessionId}`,
  /** Company users with the given profile or higher (admins, supervisors). */
  profile: (companyId: number, profile: string) => `company:${companyId}:profile:${profile}`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  /** Users with allTicket enabled: they see pending tickets without a queue. */
  allTicket: (companyId: number) => `company:${companyId}:allTicket`,
  /** The company's sockets showing the contacts page: they alone get `contact` create events. */
  contactsPage: (companyId: number) => `company:${companyId}:contacts`,
  /** The platform operators (super flag). */
  supers: () => "supers",
  /** Every signed-in socket of every company (announcements). */
  everyone: () => "everyone",
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

export type SocketWithActor = Socket & { data: { actor: RequestActor; expiresAt: number } };
type ConnectionHandler = (socket: SocketWithActor) => void;

/** A handshake refusal the client reads as `err.message` (the code) and `err.data`. */
function refusal(code: ErrorCode, data: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(code), { data: { error: code, ...data } });
}

function tokenOf(socket: Socket): string | null {
  const raw = (socket.handshake.auth as { token?: unknown } | undefined)?.token ?? socket.handshake.query.token;
  return typeof raw === "string" && raw ? raw.replace(/^Bearer\s+/i, "") : null;
}

/**
 * socket.io on the HTTP server. A socket is admitted with the same check as an API request
 * (`authenticateAccessToken`: live session, usable company) and lives only as long as its access
 * token: the client sends each refreshed token (`CLIENT_EVENTS.authToken`), and a socket whose token
 * expires without one is closed. Each socket joins its company, user, session and profile rooms;
 * domains emit to rooms through `emit`. With REDIS_URL set, the Redis adapter carries emits, room
 * operations and disconnections between server processes.
 */
export class Realtime {
  readonly io: Server;
  private readonly handlers: ConnectionHandler[] = [];
  /** Told when a user's online flag changed (the users domain sends the user event, so lists follow). */
  private readonly presenceListeners: ((companyId: number, userId: number) => void)[] = [];
  /** The Redis adapter's clients, with REDIS_URL. */
  private redis: { pub: RedisClient; sub: RedisClient } | null = null;
  /** The online-flag checks of sockets that closed, still running: close() waits for them before Redis goes. */
  private readonly offlineChecks = new Set<Promise<void>>();
  // Not in socket.data: the Redis adapter serializes socket.data for other processes' fetchSockets.
  private readonly expiryTimers = new WeakMap<Socket, NodeJS.Timeout>();
  /** Set when close() starts: emits still held then are dropped. */
  private closed = false;
  /** False on a worker: no HTTP server, no sockets of its own (it only emits). */
  private readonly attached: boolean;

  /** `httpServer` null: a worker process, which emits (through the Redis adapter) but takes no sockets. */
  constructor(
    httpServer: HttpServer | null,
    private readonly sql: Sql,
    private readonly tokens: TokenService,
    private readonly log: FastifyBaseLogger,
  ) {
    this.io = new Server({
      path: "/socket.io",
      pingInterval: LIMITS.socketPingMs,
      pingTimeout: LIMITS.socketPingMs,
      serveClient: false,
      cors: { origin: true, credentials: true },
    });
    this.attached = httpServer !== null;
    if (httpServer) this.io.attach(httpServer);
    this.io.use((socket, next) => {
      this.admit(socket as SocketWithActor).then(
        () => next(),
        (err: unknown) => next(err as Error),
      );
    });
    this.io.on("connection", (raw) => this.connected(raw as SocketWithActor));
  }

  private async admit(socket: SocketWithActor): Promise<void> {
    let admitted;
    try {
      admitted = await authenticateAccessToken(this.sql, this.tokens, tokenOf(socket));
    } catch (err) {
      if (err instanceof AppError) throw refusal(err.code, err.extra);
      this.log.error({ err, socketId: socket.id }, "socket handshake check failed");
      throw refusal("ERR_INTERNAL");
    }
    // The cap counts the user's sockets on every process; the new socket is refused rather than an
    // old one closed, so a leaked token cannot push the real user's windows off.
    const open = await this.io
      .in(rooms.user(admitted.actor.id))
      .fetchSockets()
      .catch((err: unknown) => {
        // Another process did not answer in time: admit rather than lock the user out of real-time.
        this.log.warn({ err, userId: admitted.actor.id }, "socket cap not checked: fetchSockets failed");
        return [];
      });
    if (open.length >= LIMITS.socketsPerUser) throw refusal("ERR_TOO_MANY_SOCKETS", { limit: LIMITS.socketsPerUser });
    socket.data.actor = admitted.actor;
    socket.data.expiresAt = admitted.expiresAt;
  }

  private connected(socket: SocketWithActor): void {
    const actor = socket.data.actor;
    void socket.join([
      rooms.company(actor.companyId),
      rooms.user(actor.id),
      rooms.profile(actor.companyId, actor.profile),
      ...(actor.sessionId ? [rooms.session(actor.sessionId)] : []),
    ]);
    void socket.join(rooms.everyone());
    if (actor.super) void socket.join(rooms.supers());
    for (const q of actor.queueIds) void socket.join(rooms.queue(actor.companyId, q));
    void socket.join(ticketViewRooms(actor));
    this.scheduleExpiry(socket);
    socket.on(CLIENT_EVENTS.authToken, (token: unknown, ack?: unknown) => {
      void this.reauthenticate(socket, typeof token === "string" ? token : null).then((answer) => {
        if (typeof ack === "function") ack(answer);
        // After the answer, so the client learns why.
        if ("error" in answer) socket.disconnect(true);
      });
    });
    socket.on(CLIENT_EVENTS.joinNotification, () => undefined);
    socket.on(CLIENT_EVENTS.joinContacts, () => void socket.join(rooms.contactsPage(actor.companyId)));
    socket.on(CLIENT_EVENTS.leaveContacts, () => void socket.leave(rooms.contactsPage(actor.companyId)));
    // online while a socket is connected; last_seen_at (each connect and userStatus, every 5 minutes)
    // lets the dashboard disregard a flag a crashed process never cleared
    this.markSeen(actor, "socket connect");
    socket.on(CLIENT_EVENTS.userStatus, () => this.markSeen(actor, "userStatus"));
    socket.on("disconnect", () => {
      clearTimeout(this.expiryTimers.get(socket));
      const check = this.markOfflineIfLastSocket(actor);
      this.offlineChecks.add(check);
      void check.finally(() => this.offlineChecks.delete(check));
    });
    for (const handler of this.handlers) handler(socket);
  }

  /** Closes the socket when its access token expires, unless a refreshed token arrived first. */
  private scheduleExpiry(socket: SocketWithActor): void {
    clearTimeout(this.expiryTimers.get(socket));
    const ms = Math.max(0, socket.data.expiresAt * 1000 - Date.now());
    this.expiryTimers.set(socket, setTimeout(() => socket.disconnect(true), ms));
  }

  /** A refreshed token for the same user and session extends the socket; anything else is refused (and the socket closed). */
  private async reauthenticate(socket: SocketWithActor, token: string | null): Promise<{ ok: true } | { error: ErrorCode }> {
    const current = socket.data.actor;
    try {
      const { actor, expiresAt } = await authenticateAccessToken(this.sql, this.tokens, token);
      if (actor.id !== current.id || actor.sessionId !== current.sessionId) throw new AppError("ERR_SESSION_EXPIRED");
      socket.data.actor = actor;
      socket.data.expiresAt = expiresAt;
      this.scheduleExpiry(socket);
      return { ok: true };
    } catch (err) {
      const code = err instanceof AppError ? err.code : "ERR_INTERNAL";
      if (!(err instanceof AppError)) this.log.error({ err, socketId: socket.id, userId: current.id }, "socket re-authentication failed");
      return { error: code };
    }
  }

  private markSeen(actor: RequestActor, reason: string): void {
    this.setOnline(actor, true, true).catch((err: unknown) =>
      this.log.error({ err, userId: actor.id, companyId: actor.companyId, reason }, "could not mark the user online"),
    );
  }

  /**
   * Writes the online flag (`seen`: and last_seen_at); tells the presence listeners when the user's
   * presence by the one rule (isOnline) changed: a first socket after a long absence, the last one closing.
   */
  private async setOnline(actor: RequestActor, online: boolean, seen = false): Promise<void> {
    const row = await this.sql.maybe<{ was: boolean; was_seen: Date | null; last_seen_at: Date | null }>(
      `UPDATE users u SET online = $3, last_seen_at = CASE WHEN $4 THEN now() ELSE u.last_seen_at END
         FROM (SELECT online AS was, last_seen_at AS was_seen FROM users WHERE id = $1 AND company_id = $2 FOR UPDATE) o
        WHERE u.id = $1 AND u.company_id = $2 RETURNING o.was, o.was_seen, u.last_seen_at`,
      [actor.id, actor.companyId, online, seen],
    );
    if (!row) return;
    const now = new Date();
    const at = (d: Date | null) => (d ? new Date(d) : null);
    const before = isOnline({ online: row.was, lastSeenAt: at(row.was_seen) }, now);
    if (before !== isOnline({ online, lastSeenAt: at(row.last_seen_at) }, now)) for (const listener of this.presenceListeners) listener(actor.companyId, actor.id);
  }

  /** Lets a domain react when a user's presence changes (a socket opened or the last one closed). */
  onPresenceChange(listener: (companyId: number, userId: number) => void): void {
    this.presenceListeners.push(listener);
  }

  /**
   * The 'online' flag is cleared when the user's last socket, on any process, has closed. A socket that
   * connects meanwhile (a page reload: the old socket closes as the new one opens) may have set the flag
   * just before this clears it, so the user's sockets are counted again after the write, and the flag
   * set back when one is there: a reloaded page never leaves its user offline.
   */
  private async markOfflineIfLastSocket(actor: RequestActor): Promise<void> {
    try {
      const left = await this.io.in(rooms.user(actor.id)).fetchSockets();
      if (left.length > 0) return;
      await this.setOnline(actor, false);
      const joined = await this.io.in(rooms.user(actor.id)).fetchSockets();
      if (joined.length > 0) await this.setOnline(actor, true);
    } catch (err) {
      this.log.error({ err, userId: actor.id, companyId: actor.companyId }, "could not clear the user's online flag");
    }
  }

  async useRedis(url: string): Promise<void> {
    const [pub, sub] = await Promise.all([
      connectRedis(url, this.log, "socket.io adapter publisher"),
      connectRedis(url, this.log, "socket.io adapter subscriber"),
    ]);
    this.redis = { pub, sub };
    this.io.adapter(createAdapter(pub, sub));
  }

  /**
   * The readiness probe's check of the adapter's Redis: null without Redis; "down" while either client
   * is reconnecting (at once: a PING would wait in the offline queue for the reconnection, and the
   * outage is already logged by the clients' own listeners, core/redis-client.ts); else a PING.
   */
  async redisAnswers(): Promise<"ok" | "down" | null> {
    if (!this.redis) return null;
    if (!this.redis.pub.isReady || !this.redis.sub.isReady) return "down";
    await this.redis.pub.ping();
    return "ok";
  }

  /** Lets a domain react to each authenticated socket (join extra rooms, handle client events). */
  onConnection(handler: ConnectionHandler): void {
    this.handlers.push(handler);
  }

  /**
   * Emits `event` with `payload` to every socket in one or more rooms (socket.io encodes it once for
   * them all), after the current transaction commits and the current request has been answered
   * (core/after-work.ts): a change is announced only once it is visible, and the answer to the request
   * that made it never waits for the broadcast.
   */
  emit(room: string | string[], event: string, payload: unknown): void {
    afterCommit(() => {
      // held past the close (a request answered as the server stops): the adapter's Redis is gone
      if (this.closed) return;
      try {
        this.io.to(room).emit(event, payload);
      } catch (err) {
        this.log.error({ err, event, room }, "real-time emit failed");
      }
    });
  }

  /**
   * Closes, on every process, the sockets of ended sessions (`revokeSessions`' ids), of a user, or of
   * a company. A broadcast operation: it never waits for other processes to answer. Held like `emit`
   * (after the commit and the answer) and in the same queue, so an event emitted just before reaches
   * the sockets before they close (the 'accessed on another computer' notice of a second login).
   */
  endSessions(sessionIds: string[]): void {
    if (sessionIds.length) this.disconnect(sessionIds.map(rooms.session));
  }

  endUser(userId: number): void {
    this.disconnect(rooms.user(userId));
  }

  endCompany(companyId: number): void {
    this.disconnect(rooms.company(companyId));
  }

  private disconnect(room: string | string[]): void {
    afterCommit(() => {
      if (this.closed) return;
      try {
        this.io.in(room).disconnectSockets(true);
      } catch (err) {
        this.log.error({ err, room }, "real-time disconnect failed");
      }
    });
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
      this.disconnect(rooms.user(userId));
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
    for (const s of await this.io.in(rooms.user(userId)).local.fetchSockets()) s.data.actor = { ...actor, sessionId: s.data.actor.sessionId };
  }

  async close(): Promise<void> {
    this.closed = true;
    // each socket's transport is closed without a disconnect packet, so the browser's client reconnects
    // by itself (to another web process behind the load balancer) rather than staying disconnected
    // (the HTTP server itself is closed by Fastify, which also closes idle keep-alive connections at once:
    // socket.io's own close would wait for them to time out)
    if (this.attached) {
      this.io.engine.close();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // the sockets' disconnect handlers ask the adapter (Redis) who is left: they finish before the adapter
    // closes (closed first, their question would wait for answers it can no longer hear: 5 s)
    await Promise.allSettled([...this.offlineChecks]);
    // while Redis is down the adapter's unsubscribes would wait in the subscriber's offline queue, and fail
    // when the client is dropped: the subscriber goes with its subscriptions instead
    if (!this.redis || this.redis.sub.isReady) await this.io.of("/").adapter.close();
    if (!this.redis) return;
    const { pub, sub } = this.redis;
    this.redis = null;
    await Promise.all(
      [pub, sub].map((c) => closeRedis(c).catch((err: unknown) => this.log.warn({ err }, "closing a Redis client of the socket adapter failed"))),
    );
  }
}
