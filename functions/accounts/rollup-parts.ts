import type { MeterUser } from '../../shared/schemas/account.ts';
import { objectOf } from '../core/lib/stored-values.ts';

/**
 * The parts of a bill a roll-up keeps beside its consumption, net cost and emissions: the electricity
 * supplied under REGO-backed renewable contracts (for market-based scope 2), the VAT on top of the net
 * cost, and the Climate Change Levy and standing charges within it. Each is added like the other figures,
 * and left out of a write that does not carry it, so older figures simply lack it.
 */
export const ROLLUP_PARTS = ['regoKwh', 'vat', 'ccl', 'standingCharge'] as const;
export type RollupPart = (typeof ROLLUP_PARTS)[number];

/** Where a meter's month came from, as the roll-ups split their figures (and detailedSource names it). */
export const ROLLUP_SOURCES = ['bills', 'imports', 'readings', 'estimates'] as const;
export type RollupSource = (typeof ROLLUP_SOURCES)[number];
/** Who uses a meter's supply, as the roll-ups split their figures; a meter with none set is in no part. */
export const ROLLUP_USERS = ['landlord', 'tenant', 'shared'] as const;
const SPLIT_MEASURES = ['consumption', 'cost', 'emissionsKg'] as const;
type SplitMeasure = (typeof SPLIT_MEASURES)[number];
export type SplitGroup = RollupSource | MeterUser;
export type SplitPart = `${SplitGroup}_${SplitMeasure}`;

/**
 * A roll-up's figures split by source and by meter user: each write adds its change to the part of the
 * source it came from and of the meter's user, so a roll-up answers "bills only" or "tenants only" as
 * cheaply as its total. Kept on roll-ups only, never on a meter's own months (their source and meter say it).
 */
export const SPLIT_PARTS: readonly SplitPart[] = [...ROLLUP_SOURCES, ...ROLLUP_USERS].flatMap((g) =>
  SPLIT_MEASURES.map((m): SplitPart => `${g}_${m}`),
);
/** Every part a roll-up row adds beside its figures: the bill's parts, then the splits. */
export const ALL_ROLLUP_PARTS: readonly (RollupPart | SplitPart)[] = [...ROLLUP_PARTS, ...SPLIT_PARTS];
export type RollupParts = Partial<Record<RollupPart | SplitPart, number>>;

/** A meter month's source as the roll-ups split by it (a month of unknown source counts as imported). */
export function rollupSourceOf(source: unknown): RollupSource {
  if (source === 'invoice') return 'bills';
  if (source === 'interval') return 'readings';
  if (source === 'estimate') return 'estimates';
  return 'imports';
}

/** A meter's user as stored, or undefined when it has none (or one this code does not know). */
export function meterUserOf(account: object | undefined): MeterUser | undefined {
  const u = objectOf(account).meterUser;
  return u === 'landlord' || u === 'tenant' || u === 'shared' ? u : undefined;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The split parts of a change of figures that came from one source, of a meter with this user (none: in
 * no user part), added to `into` when given.
 */
export function splitOf(
  figures: { consumption: number; cost: number; emissionsKg: number },
  source: RollupSource,
  user: MeterUser | undefined,
  into: RollupParts = {},
): RollupParts {
  for (const group of user ? [source, user] : [source])
    for (const m of SPLIT_MEASURES) {
      const key: SplitPart = `${group}_${m}`;
      const v = round((into[key] ?? 0) + figures[m]);
      into[key] = v;
    }
  return into;
}

/** The ADD clauses, names and values of the parts a delta carries, signed (only `which` of them). */
export function partAdds(
  delta: RollupParts,
  sign: 1 | -1 = 1,
  which: readonly (RollupPart | SplitPart)[] = ROLLUP_PARTS,
): { adds: string[]; names: Record<string, string>; values: Record<string, number> } {
  const adds: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  for (const part of which) {
    const v = delta[part];
    if (v === undefined || v === 0 || !Number.isFinite(v)) continue;
    names[`#part_${part}`] = part;
    values[`:part_${part}`] = sign * v;
    adds.push(`#part_${part} :part_${part}`);
  }
  return { adds, names, values };
}

/** Adds the split parts of `from` to `into` (changes summed before one roll-up write). */
export function sumParts(into: RollupParts, from: RollupParts): void {
  for (const part of SPLIT_PARTS) {
    const v = from[part];
    if (v !== undefined) into[part] = round((into[part] ?? 0) + v);
  }
}
