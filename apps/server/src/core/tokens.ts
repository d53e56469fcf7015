import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export interface AccessClaims {
  userId: number;
  companyId: number;
  tokenVersion: number;
}

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ cid: claims.companyId, tv: claims.tokenVersion })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** Returns the claims, or null for any invalid or expired token. */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
      const userId = Number(payload.sub);
      const companyId = Number(payload.cid);
      const tokenVersion = Number(payload.tv);
      if (!Number.isInteger(userId) || !Number.isInteger(companyId) || !Number.isInteger(tokenVersion)) return null;
      return { userId, companyId, tokenVersion };
    } catch {
      return null;
    }
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
