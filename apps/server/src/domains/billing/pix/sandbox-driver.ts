import { randomBytes } from "node:crypto";
import type { Sql } from "../../../db/sql.js";
import { buildBrCode } from "./brcode.js";
import type { PixConfig } from "./config.js";
import type { PixChargeCreated, PixChargeState, PixDriver } from "./driver.js";

interface SandboxRow {
  txid: string;
  amount: number;
  chave: string;
  status: string;
  end_to_end_id: string | null;
  paid_amount: number | null;
  paid_at: Date | null;
  expires_at: Date;
}

/**
 * The built-in sandbox PSP (development, tests, demos): it keeps its charges in its own table, as a
 * real PSP would, answers them like the Banco Central's API, and "pays" one from its page (pay()).
 * Its BR Codes point at the sandbox page; no bank accepts them.
 */
export class SandboxPixDriver implements PixDriver {
  readonly name = "sandbox";

  constructor(
    private readonly sql: Sql,
    private readonly config: PixConfig,
    private readonly publicUrl: string,
  ) {}

  async createCharge(input: { txid: string; amount: number; expiresInSeconds: number }): Promise<PixChargeCreated> {
    const row = await this.sql.one<SandboxRow>(
      `INSERT INTO pix_sandbox_charges (txid, amount, chave, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING *`,
      [input.txid, input.amount.toFixed(2), this.config.chave, input.expiresInSeconds],
    );
    const host = this.publicUrl.replace(/^https?:\/\//, "").replace(/\/+$/, "");
    const brcode = buildBrCode({ location: `${host}/pix-sandbox/${input.txid}`, amount: input.amount, merchantName: this.config.merchantName, merchantCity: this.config.merchantCity });
    return { txid: row.txid, status: "ATIVA", brcode, expiresAt: row.expires_at };
  }

  async find(txid: string): Promise<SandboxRow | null> {
    return this.sql.maybe<SandboxRow>(
      `SELECT txid, amount, chave, CASE WHEN status = 'ATIVA' AND expires_at < now() THEN 'EXPIRADA' ELSE status END AS status,
              end_to_end_id, paid_amount, paid_at, expires_at FROM pix_sandbox_charges WHERE txid = $1`,
      [txid],
    );
  }

  async getCharge(txid: string): Promise<PixChargeState | null> {
    const row = await this.find(txid);
    if (!row) return null;
    const pix = row.end_to_end_id
      ? [{ endToEndId: row.end_to_end_id, txid: row.txid, valor: Number(row.paid_amount ?? row.amount).toFixed(2), horario: row.paid_at?.toISOString() }]
      : [];
    return { txid: row.txid, status: row.status, pix };
  }

  /** The page's pay button: settles an active, unexpired charge once (amount defaults to the charge's). */
  async pay(txid: string, amount?: number): Promise<SandboxRow | null> {
    const e2e = `E00000000${new Date().toISOString().replace(/\D/g, "").slice(0, 12)}${randomBytes(6).toString("hex")}`.slice(0, 32);
    return this.sql.maybe<SandboxRow>(
      `UPDATE pix_sandbox_charges SET status = 'CONCLUIDA', end_to_end_id = $2, paid_amount = COALESCE($3::numeric, amount), paid_at = now()
        WHERE txid = $1 AND status = 'ATIVA' AND expires_at > now() RETURNING *`,
      [txid, e2e, amount === undefined ? null : amount.toFixed(2)],
    );
  }

  async registerWebhook(): Promise<void> {
    // the sandbox calls the payment handling in-process: nothing to register
  }
}
