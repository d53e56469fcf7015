import { CAMPAIGN_MANDATORY_COLUMNS } from "./campaign-template-rules.js";

/**
 * The header line of a campaign CSV (spec 3 §5), one rule for the three channels' analyses on the
 * server and for the campaign forms when a file is chosen: refused when it has a single column (the
 * separator is not ';') or lacks a mandatory column (telefone, cpf, email). Names are compared without
 * a BOM, trimmed and in lower case.
 */
export type CampaignHeaderRefusal = { kind: "separator" } | { kind: "missingHeaders"; missing: string[] };

export interface CampaignFileColumns {
  /** Every header, normalised. */
  names: string[];
  phone: number;
  cpf: number;
  email: number;
  /** The variable columns (every column but the three mandatory ones), in file order. */
  vars: number[];
}

/** A header cell as the rule compares it: no BOM, trimmed, lower case. */
export const campaignHeaderName = (cell: string) => cell.replace(/^\uFEFF/, "").trim().toLowerCase();

export function campaignFileColumns(cells: readonly string[]): { columns: CampaignFileColumns } | { refusal: CampaignHeaderRefusal } {
  const names = cells.map(campaignHeaderName);
  if (names.length < 2) return { refusal: { kind: "separator" } };
  const missing = CAMPAIGN_MANDATORY_COLUMNS.filter((h) => !names.includes(h));
  if (missing.length) return { refusal: { kind: "missingHeaders", missing } };
  const phone = names.indexOf("telefone");
  const cpf = names.indexOf("cpf");
  const email = names.indexOf("email");
  const vars = names.map((_, i) => i).filter((i) => i !== phone && i !== cpf && i !== email);
  return { columns: { names, phone, cpf, email, vars } };
}

/**
 * The header cells of a file's first line as the server's CSV reader sees them (`;`, a cell's
 * surrounding double quotes removed, "" inside one a quote), for a check in the browser before the
 * upload. Only the first line: a header never spans lines.
 */
export function campaignHeaderCells(text: string): string[] {
  const line = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return line.split(";").map((cell) => {
    const c = cell.trim();
    return c.length >= 2 && c.startsWith('"') && c.endsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c;
  });
}
