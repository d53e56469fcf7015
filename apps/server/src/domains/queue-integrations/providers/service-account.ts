import { createPrivateKey, createSign } from "node:crypto";
import { AppError } from "../../../core/errors.js";
import { maskSecret } from "../../../core/secrets/sealer.js";

/** The fields of a Google service-account key file that a token exchange needs. */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri: string;
}

const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";

/** Parses and checks a pasted key file (ERR_INTEGRATION_BAD_CREDENTIALS when it is not one). */
export function parseServiceAccount(json: string): ServiceAccount {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(json) as Record<string, unknown>;
  } catch {
    // the text is the company's secret: the parser's message may quote it, so it is not repeated
    throw new AppError("ERR_INTEGRATION_BAD_CREDENTIALS", "O conteúdo JSON não é válido", { fields: { jsonContent: "JSON inválido" } });
  }
  const email = data?.client_email;
  const key = data?.private_key;
  const tokenUri = data?.token_uri ?? DEFAULT_TOKEN_URI;
  if (typeof email !== "string" || typeof key !== "string" || typeof tokenUri !== "string" || !/^https?:\/\//.test(tokenUri)) {
    throw new AppError("ERR_INTEGRATION_BAD_CREDENTIALS", "A chave da conta de serviço precisa de client_email, private_key e token_uri", {
      fields: { jsonContent: "Chave de conta de serviço inválida" },
    });
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new AppError("ERR_INTEGRATION_BAD_CREDENTIALS", "A private_key da conta de serviço não é uma chave RSA válida", {
      fields: { jsonContent: "private_key inválida" },
    });
  }
  return { client_email: email, private_key: key, token_uri: tokenUri };
}

/** What the API shows of a key: its account's e-mail and the key's last characters. */
export function maskServiceAccount(sa: ServiceAccount): string {
  return `${sa.client_email} ${maskSecret(sa.private_key.replace(/-----[A-Z ]+-----|\s/g, ""))}`;
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");

/** The signed JWT a service account exchanges for an access token (RFC 7523, Google's OAuth2 for service accounts). */
export function signAssertion(sa: ServiceAccount, scope: string, now = Math.floor(Date.now() / 1000)): string {
  const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const claims = b64url(JSON.stringify({ iss: sa.client_email, scope, aud: sa.token_uri, iat: now, exp: now + 3600 }));
  const signer = createSign("RSA-SHA256");
  signer.update(`${header}.${claims}`);
  return `${header}.${claims}.${b64url(signer.sign(sa.private_key))}`;
}
