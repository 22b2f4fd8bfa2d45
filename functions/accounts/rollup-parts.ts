/**
 * The parts of a bill a roll-up keeps beside its consumption, net cost and emissions: the electricity
 * supplied under REGO-backed renewable contracts (for market-based scope 2), the VAT on top of the net
 * cost, and the Climate Change Levy and standing charges within it. Each is added like the other figures,
 * and left out of a write that does not carry it, so older figures simply lack it.
 */
export const ROLLUP_PARTS = ['regoKwh', 'vat', 'ccl', 'standingCharge'] as const;
export type RollupPart = (typeof ROLLUP_PARTS)[number];
export type RollupParts = Partial<Record<RollupPart, number>>;

/** The ADD clauses, names and values of the parts a delta carries, signed. */
export function partAdds(
  delta: RollupParts,
  sign: 1 | -1 = 1,
): { adds: string[]; names: Record<string, string>; values: Record<string, number> } {
  const adds: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  for (const part of ROLLUP_PARTS) {
    const v = delta[part];
    if (v === undefined || v === 0 || !Number.isFinite(v)) continue;
    names[`#part_${part}`] = part;
    values[`:part_${part}`] = sign * v;
    adds.push(`#part_${part} :part_${part}`);
  }
  return { adds, names, values };
}
