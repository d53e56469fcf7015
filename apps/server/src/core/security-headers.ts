import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import { BI_ALLOWED_HOSTS } from "@atende/shared";

/**
 * Security headers for every answer (app shell, assets and API) through @fastify/helmet.
 * The policy is written out rather than taken from helmet's defaults so each source has a reason:
 * - styles: MUI/emotion inject <style> elements at run time, hence 'unsafe-inline' for styles only;
 * - images: contact avatars come from WhatsApp's CDN (https:), previews from blob:/data:, and this
 *   server's own public address (PUBLIC_URL), which may differ from the host the page was opened
 *   on: the e-mail open pixel and tracked links in the sandbox mailbox are built on PUBLIC_URL, and
 *   browsing on 127.0.0.1 while PUBLIC_URL says localhost (or on a LAN address) blocked them;
 * - media: recorded voice notes play from blob:;
 * - connect: the API and socket.io (same origin, http polling and ws/wss);
 * - frames: the help page embeds YouTube videos, the BI page the company's dashboard from the BI hosts
 *   (BI_ALLOWED_HOSTS plus the operator's extra list, https only); nobody may frame the app
 *   (frame-ancestors 'none').
 * No upgrade-insecure-requests: a self-hosted install may run on plain http inside a LAN.
 * Stored media override the policy with `sandbox` (see media-type.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance, o: { extraBiHosts?: readonly string[]; publicUrl?: string } = {}): Promise<void> {
  const biFrames = [...BI_ALLOWED_HOSTS, ...(o.extraBiHosts ?? [])].map((host) => `https://${host}`);
  const publicOrigin = o.publicUrl ? [new URL(o.publicUrl).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", "https:", ...publicOrigin],
        mediaSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", "ws:", "wss:"],
        frameSrc: ["https://www.youtube.com", "https://www.youtube-nocookie.com", ...biFrames],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Avatars and YouTube embeds are cross-origin resources without CORP headers.
    crossOriginEmbedderPolicy: false,
    // the same as frame-ancestors 'none', for browsers that only know the older header
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}
