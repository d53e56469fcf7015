/**
 * Lines of a file, counted in the browser as a stream (never the whole file in memory): line feeds,
 * plus a last line without one. Spec §5: the message count is this minus 1 (the header).
 */
export async function countLines(file: Blob): Promise<number> {
  const reader = file.stream().getReader();
  let lines = 0;
  let last = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let i = 0; i < value.length; i++) if (value[i] === 0x0a) lines++;
    if (value.length) last = value[value.length - 1]!;
  }
  if (last !== -1 && last !== 0x0a) lines++;
  return lines;
}

/** A sample CSV: the mandatory columns and `variables` variable columns. */
export function sampleCsv(variables: number): string {
  const n = Math.max(variables, 1);
  const vars = Array.from({ length: n }, (_, i) => `var${i + 1}`);
  const values = Array.from({ length: n }, (_, i) => `valor${i + 1}`);
  return `telefone;cpf;email;${vars.join(";")}\n5511999998888;12345678909;cliente@exemplo.com;${values.join(";")}\n`;
}
