import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export interface AccessClaims {
  userId: number;
  companyId: number;
  /** The server-side session (table `sessions`) the token belongs to. */
  sessionId: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Verified access tokens remembered per process (a few thousand signed-in tabs). */
const VERIFIED_TOKENS_KEPT = 5000;

export class TokenService {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, AccessClaims>();
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async signAccess(claims: Pick<AccessClaims, "userId" | "companyId" | "sessionId">): Promise<string> {
    return new SignJWT({ cid: claims.companyId, sid: claims.sessionId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /**
   * Returns the claims, or null for any invalid or expired token. A token without `exp` or `sid`
   * is refused: it could never end.
   */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    // A token whose signature was checked stays valid until it expires: its claims are remembered
    // (the session behind it is still checked on every request, by loadActor).
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt * 1000 > Date.now()) return known;
      this.verified.delete(token);
    }
    const claims = await this.checkAccess(token);
    if (claims) {
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.clear();
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async checkAccess(token: string): Promise<AccessClaims | null> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub", "sid"] }));
      // eslint-disable-next-line no-restricted-syntax -- an invalid token is the caller's answer (null → ERR_SESSION_EXPIRED), not a failure to log
    } catch {
      return null;
    }
    const userId = Number(payload.sub);
    const companyId = Number(payload.cid);
    const sessionId = payload.sid;
    if (!Number.isInteger(userId) || !Number.isInteger(companyId) || typeof sessionId !== "string" || !UUID.test(sessionId)) return null;
    return { userId, companyId, sessionId, expiresAt: payload.exp as number };
  }
}

/** Opaque refresh tokens: random, only their SHA-256 is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
