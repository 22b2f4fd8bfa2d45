import type { Caller } from '../../shared/access/caller.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { listAccountMonths, type StoredAccountMonth, utilityOf } from '../accounts/index.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { inPool } from '../core/lib/in-pool.ts';
import type { Figures, MonthFigure, Totals, UtilityFigures } from './analytics-figures.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import type { MeterRef, ReadScope } from './analytics-scope.ts';

const READ_CONCURRENCY = 8;

/**
 * The meters whose months make up a scope's figures: every main meter of the company or of its sites
 * (sub-meters are inside their parent's figures), and the meters granted one by one.
 */
async function metersOf(caller: Caller, scope: ReadScope): Promise<MeterRef[]> {
  if (!scope.wholeCompany && scope.sites.length === 0) return scope.meters;
  const sites = new Set(scope.sites.map((s) => s._id));
  const pk = scopeCollectionPk(caller.companyId, 'accounts');
  const accounts = await projectAll(pk, ['assetId', 'type', 'parentAccountId']);
  const main = accounts
    .filter((a) => !isSubMeter(a) && typeof a.assetId === 'string')
    .filter((a) => scope.wholeCompany || sites.has(String(a.assetId)))
    .map((a) => ({ _id: a._id, assetId: String(a.assetId), utilityType: utilityOf(a) }));
  return [...main, ...scope.meters];
}

/** Where a meter's month came from, as detailedSource names it. */
export const SOURCE_KINDS = ['bills', 'imports', 'readings', 'estimates'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
const KIND_OF: Readonly<Record<StoredAccountMonth['source'], SourceKind>> = {
  invoice: 'bills',
  import: 'imports',
  interval: 'readings',
  estimate: 'estimates',
};

/** A meter's month within a scope's figures, with where it came from and the bills written to it. */
export interface SourcedMonth {
  accountId: string;
  kind: SourceKind;
  invoiceIds: string[];
  figure: MonthFigure;
}

const idsOf = (v: unknown): string[] =>
  v instanceof Set || Array.isArray(v) ? [...(v as Iterable<unknown>)].map(String).sort() : [];

/**
 * Every meter month within a scope's figures, read meter by meter (the roll-ups add the sources
 * together): for the estimated part, the part of each source, and the records behind a period.
 */
export async function readSourcedMonths(
  caller: Caller,
  scope: ReadScope,
  months: { from: string; to: string },
  utilities: readonly UtilityType[] | undefined,
): Promise<SourcedMonth[]> {
  const meters = (await metersOf(caller, scope)).filter(
    (m) => !utilities || utilities.includes(m.utilityType),
  );
  const rows = await inPool(meters, READ_CONCURRENCY, async (meter) =>
    (await listAccountMonths(caller.companyId, meter._id, months.from, months.to)).map(
      (m): SourcedMonth => ({
        accountId: meter._id,
        kind: KIND_OF[m.source] ?? 'imports',
        invoiceIds: idsOf(m.invoiceIds),
        figure: {
          month: m.month,
          utilityType: meter.utilityType,
          consumption: m.consumption,
          unit: m.unit,
          cost: m.cost,
          emissionsKg: m.emissionsKg,
          ...(meter.assetId ? { assetId: meter.assetId } : {}),
        },
      }),
    ),
  );
  return rows.flat();
}

/** The months of one source, as figures. */
export const monthsFrom = (months: readonly SourcedMonth[], kind: SourceKind): MonthFigure[] =>
  months.filter((m) => m.kind === kind).map((m) => m.figure);

type Estimated = Omit<UtilityFigures, 'unit' | 'estimated'>;

function markEstimates(into: Totals, estimates: Totals | undefined): void {
  for (const [utility, figures] of Object.entries(into.utilities) as [UtilityType, UtilityFigures][]) {
    const e = estimates?.utilities[utility];
    const part: Estimated = {
      consumption: e?.consumption ?? 0,
      ...(figures.cost !== undefined ? { cost: e?.cost ?? 0 } : {}),
      emissionsKg: e?.emissionsKg ?? 0,
    };
    figures.estimated = part;
  }
}

/** Gives each utility figure, per bucket and in the totals, the part of it that is estimated. */
export function withEstimates(figures: Figures, estimates: Figures): void {
  const byKey = new Map(estimates.buckets.map((b) => [b.key, b]));
  for (const bucket of figures.buckets) markEstimates(bucket, byKey.get(bucket.key));
  markEstimates(figures.totals, estimates.totals);
}
