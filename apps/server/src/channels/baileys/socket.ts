import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  makeCacheableSignalKeyStore,
  type AnyMessageContent,
  type AuthenticationState,
  type BaileysEventEmitter,
  type GroupMetadata,
  type SocketConfig,
  type MiscMessageGenerationOptions,
  type proto,
  type WAMessage,
  type WAMessageKey,
  type WAVersion,
} from "baileys";

/** The library's logging contract (a subset of pino's). */
export type ILogger = SocketConfig["logger"];

/**
 * The WhatsApp Web version the socket announces. Pinned (never fetched at start); WhatsApp refuses
 * versions that grow too old (close code 405), and the fix is to raise this to a current release.
 */
export const WA_VERSION: WAVersion = [2, 3000, 1043857760];

/** The part of a Baileys socket the driver uses; tests inject an object of this shape. */
export interface BaileysSocket {
  ev: Pick<BaileysEventEmitter, "on">;
  user?: { id: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): Promise<void> | void;
  groupMetadata?(jid: string): Promise<Pick<GroupMetadata, "subject">>;
  onWhatsApp?(...phoneNumbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  updateMediaMessage?(message: WAMessage): Promise<WAMessage>;
  /** Pairing by phone number: the 8-character code WhatsApp asks for on that phone. */
  requestPairingCode?(phoneNumber: string): Promise<string>;
}

export interface SocketFactoryInput {
  auth: AuthenticationState;
  getMessage: (key: WAMessageKey) => Promise<proto.IMessage | undefined>;
  logger: ILogger;
}

export type SocketFactory = (input: SocketFactoryInput) => BaileysSocket;

/** Downloads (and decrypts) a received media message. */
export type MediaDownloader = (message: WAMessage, socket: BaileysSocket, logger: ILogger) => Promise<Buffer>;

const LEVELS = ["trace", "debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof LEVELS)[number];

/** The server's log line sink a Baileys logger writes to (pino's methods: the server's logger). */
export type LogSink = Record<"trace" | "debug" | "info" | "warn" | "error", (obj: object, msg?: string) => void>;

/**
 * A small ILogger (the library's logging contract) writing, at `level` and above, through the server's
 * logger (`sink`), with Buffers and errors reduced to their size and message (the library logs keys
 * and whole protocol nodes).
 */
export function baileysLogger(sink: LogSink, level: Level, bindings: Record<string, unknown> = {}): ILogger {
  const min = LEVELS.indexOf(level);
  const at = (l: Exclude<Level, "silent">) => (obj: unknown, msg?: string) => {
    if (LEVELS.indexOf(l) < min || level === "silent") return;
    sink[l]({ ...bindings, ...(typeof obj === "object" && obj !== null ? sanitize(obj) : { value: obj }) }, msg);
  };
  return {
    level,
    child: (obj: Record<string, unknown>) => baileysLogger(sink, level, { ...bindings, ...obj }),
    trace: at("trace"),
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}

function sanitize(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v instanceof Error ? { message: v.message } : Buffer.isBuffer(v) ? `<${v.length} bytes>` : v;
  return out;
}

/** The real socket: the stored pairing, the pinned version, no QR in the terminal, not shown online. */
export const defaultSocketFactory: SocketFactory = ({ auth, getMessage, logger }) =>
  makeWASocket({
    auth: { creds: auth.creds, keys: makeCacheableSignalKeyStore(auth.keys, logger) },
    version: WA_VERSION,
    logger,
    printQRInTerminal: false,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    browser: Browsers.ubuntu("Atende"),
    getMessage,
  });

export const defaultDownloader: MediaDownloader = (message, socket, logger) =>
  downloadMediaMessage(
    message,
    "buffer",
    {},
    socket.updateMediaMessage ? { logger, reuploadRequest: (m) => socket.updateMediaMessage!(m) } : undefined,
  );
