const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Prices in BRL with two decimals (spec §9), e.g. R$ 1.234,50. */
export function formatBrl(value: number | string): string {
  return brl.format(Number(value));
}
