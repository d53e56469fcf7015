/** A payment the PSP settled for a charge (BCB API `Pix`): end-to-end id, amount, time. */
export interface PixReceived {
  endToEndId: string;
  txid: string;
  /** BRL, as the PSP wrote it ("99.90"). */
  valor: string;
  horario?: string;
}

export interface PixChargeCreated {
  txid: string;
  status: string;
  /** The BR Code to show (the PSP's pixCopiaECola, or one built from its location). */
  brcode: string;
  expiresAt: Date;
}

export interface PixChargeState {
  txid: string;
  /** ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP */
  status: string;
  pix: PixReceived[];
}

/**
 * The PSP behind the checkout: the Banco Central's standard Pix API (bcb-api-driver.ts) or the
 * built-in sandbox (sandbox-driver.ts). Immediate charges (cob) only.
 */
export interface PixDriver {
  readonly name: string;
  createCharge(input: { txid: string; amount: number; expiresInSeconds: number; description: string }): Promise<PixChargeCreated>;
  getCharge(txid: string): Promise<PixChargeState | null>;
  registerWebhook(url: string): Promise<void>;
}

export class PixUnavailable extends Error {}
