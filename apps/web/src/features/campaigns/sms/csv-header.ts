import { CAMPAIGN_MANDATORY_COLUMNS, campaignHeaderName } from "@atende/shared";

const MANDATORY: readonly string[] = CAMPAIGN_MANDATORY_COLUMNS;

/** The header's variable columns: every column but telefone, cpf and email, with its index. */
export function variableColumns(header: string[]): { index: number; name: string }[] {
  return header.map((name, index) => ({ index, name })).filter((c) => !MANDATORY.includes(campaignHeaderName(c.name)));
}
