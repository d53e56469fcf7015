/** The CSV's header cells (first line, `;`-separated), read from the file's first 64 KB only. */
export async function csvHeader(file: Blob): Promise<string[]> {
  const head = await file.slice(0, 64 * 1024).text();
  const line = head.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return line.split(";").map((c) => c.trim());
}

const MANDATORY = ["telefone", "cpf", "email"];

/** The header's variable columns: every column but telefone, cpf and email, with its index. */
export function variableColumns(header: string[]): { index: number; name: string }[] {
  return header.map((name, index) => ({ index, name })).filter((c) => !MANDATORY.includes(c.name.toLowerCase()));
}
