import { existsSync } from "node:fs";

/** Which PSP the checkout uses: the built-in sandbox, one speaking the Banco Central's Pix API, or none. */
export type PixProvider = "sandbox" | "bcb" | "none";

export interface PixConfig {
  provider: PixProvider;
  /** PIX_BASE_URL: the PSP's Pix API root (https), e.g. https://pix.example.com/api — /v2/cob/{txid} is under it. */
  baseUrl: string;
  /** PIX_TOKEN_URL: the PSP's OAuth2 token endpoint (default PIX_BASE_URL/oauth/token). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** PIX_CERT / PIX_KEY: the PEM files of the PSP's mutual-TLS client certificate; PIX_CA: an extra CA (optional). */
  certFile: string;
  keyFile: string;
  caFile: string;
  /** PIX_KEY_CHAVE: the receiver's Pix key the charges are made for. */
  chave: string;
  /** PIX_MERCHANT_NAME / PIX_MERCHANT_CITY: fields 59/60 of a BR Code the server builds itself. */
  merchantName: string;
  merchantCity: string;
  /** PIX_REGISTER_WEBHOOK=true: register the webhook URL with the PSP (PUT /v2/webhook/{chave}) at start. */
  registerWebhook: boolean;
}

export class PixConfigError extends Error {}

/**
 * PIX_PROVIDER picks the PSP: `sandbox` (the default outside production), `bcb` (the default in
 * production when PIX_BASE_URL is set) or `none`. Production refuses the sandbox unless ENABLE_SANDBOX
 * is true, and refuses a `bcb` setting that lacks https, credentials, certificate files or the key.
 */
export function loadPixConfig(env: NodeJS.ProcessEnv, production: boolean): PixConfig {
  const baseUrl = (env.PIX_BASE_URL ?? "").replace(/\/+$/, "");
  const provider = (env.PIX_PROVIDER || (production ? (baseUrl ? "bcb" : "none") : "sandbox")) as PixProvider;
  if (!["sandbox", "bcb", "none"].includes(provider)) throw new PixConfigError(`PIX_PROVIDER must be sandbox, bcb or none (got "${provider}")`);
  const config: PixConfig = {
    provider,
    baseUrl,
    tokenUrl: env.PIX_TOKEN_URL || (baseUrl ? `${baseUrl}/oauth/token` : ""),
    clientId: env.PIX_CLIENT_ID ?? "",
    clientSecret: env.PIX_CLIENT_SECRET ?? "",
    certFile: env.PIX_CERT ?? "",
    keyFile: env.PIX_KEY ?? "",
    caFile: env.PIX_CA ?? "",
    chave: env.PIX_KEY_CHAVE ?? (provider === "sandbox" ? "sandbox@atende.local" : ""),
    merchantName: env.PIX_MERCHANT_NAME ?? "Atende",
    merchantCity: env.PIX_MERCHANT_CITY ?? "Sao Paulo",
    registerWebhook: env.PIX_REGISTER_WEBHOOK === "true",
  };
  if (production && provider === "sandbox" && env.ENABLE_SANDBOX !== "true") {
    throw new PixConfigError("PIX_PROVIDER=sandbox confirms no real payment: production needs PIX_PROVIDER=bcb (or ENABLE_SANDBOX=true for a demo)");
  }
  if (provider === "bcb") {
    const missing = (["PIX_CLIENT_ID", "PIX_CLIENT_SECRET", "PIX_CERT", "PIX_KEY", "PIX_KEY_CHAVE"] as const).filter((k) => !env[k]);
    if (missing.length) throw new PixConfigError(`PIX_PROVIDER=bcb needs ${missing.join(", ")}`);
    if (production && (!baseUrl.startsWith("https://") || !config.tokenUrl.startsWith("https://"))) {
      throw new PixConfigError("PIX_BASE_URL and PIX_TOKEN_URL must be https:// in production");
    }
    for (const file of [config.certFile, config.keyFile, ...(config.caFile ? [config.caFile] : [])]) {
      if (!existsSync(file)) throw new PixConfigError(`Pix certificate file not found: ${file}`);
    }
  }
  return config;
}
