import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The signing secret of an installation without JWT_SECRET: random, made on first start and kept in
 * `DATA_DIR/secret` (mode 0600), so tokens survive restarts and no two installations share a key.
 * `wx` makes the file once even if two processes start together; the loser reads the winner's.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "secret");
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (fewer than 32 characters): remove it to make a new one`);
  return secret;
}
