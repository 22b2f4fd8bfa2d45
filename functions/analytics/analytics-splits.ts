import type { DateRange } from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  deadMeterUserMoves,
  listAccountMonths,
  type RollupParts,
  type RollupSource,
  rollupSourceOf,
  splitOf,
  tenantMetersOfSite,
  tenantNamesOfSite,
  utilityOf,
} from '../accounts/index.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { inPool } from '../core/lib/in-pool.ts';
import {
  type EmissionsBasis,
  type Figures,
  figuresOf,
  type MonthFigure,
  monthsOf,
  splitUtilities,
  type Totals,
} from './analytics-figures.ts';

/**
 * Hands the moves of meters between users that dead requests left unfinished to the analytics worker,
 * which rebuilds their sites' roll-ups off the call (its failures end on the queue's dead-letter queue).
 * One small query when none is left, which is nearly always; the split this call answers moves once the
 * worker is done.
 */
export async function handOnDeadMeterUserMoves(companyId: string): Promise<boolean> {
  if ((await deadMeterUserMoves(companyId)).length === 0) return false;
  await sendToQueue('restatements', [{ companyId, meterUserMoves: true }]).catch(() => undefined);
  return true;
}

/*
 * Loaded only for source=invoices|readings and meterUserBreakdown, which few calls ask for: the insights
 * function's cold start stays as it was.
 */

/**
 * The sources each choice of the spec's client counts. Estimated months fill gaps between bills (the
 * meter's own history, see Calendarisation), so they go with the bills; imported meter readings and
 * interval data are the readings.
 */
const SOURCES_OF: Readonly<Record<'invoices' | 'readings', readonly RollupSource[]>> = {
  invoices: ['bills', 'estimates'],
  readings: ['imports', 'readings'],
};

const sumOf = (split: RollupParts, groups: readonly string[], measure: string) =>
  groups.reduce((n, g) => n + (split[`${g}_${measure}` as keyof RollupParts] ?? 0), 0);

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * The part of each monthly figure one source gives, from the split the roll-ups keep. A figure written
 * before the roll-ups kept the split has none: it is in neither source until its site is rebuilt
 * (PUT /accounts/{id}/invalidate-cache). The bill's parts (VAT, levy, standing charges, REGO-backed
 * supply) come with the invoices only.
 */
export function onlySource(rows: readonly MonthFigure[], source: 'invoices' | 'readings'): MonthFigure[] {
  const groups = SOURCES_OF[source];
  return rows.map((r) => {
    const split = r.split ?? {};
    const { regoKwh, vat, ccl, standingCharge, split: _s, ...rest } = r;
    const c = sumOf(split, groups, 'consumption');
    return {
      ...rest,
      consumption: round(c, 3),
      cost: round(sumOf(split, groups, 'cost'), 2),
      emissionsKg: round(sumOf(split, groups, 'emissionsKg'), 3),
      ...(source === 'invoices'
        ? {
            ...(regoKwh !== undefined ? { regoKwh: Math.min(regoKwh, c) } : {}),
            ...(vat !== undefined ? { vat } : {}),
            ...(ccl !== undefined ? { ccl } : {}),
            ...(standingCharge !== undefined ? { standingCharge } : {}),
          }
        : {}),
    };
  });
}

const USERS = ['landlord', 'tenant', 'shared'] as const;
export const USER_PARTS = [...USERS, 'unset'] as const;
export type UserPart = (typeof USER_PARTS)[number];

/**
 * Each monthly figure split by who uses its meters, from the split the roll-ups keep: landlord, tenant
 * and shared as kept, and what is left in none of them (meters with no user set) as unset, so the four
 * add up to the figure exactly. A bill's parts go with each user's share of its consumption (REGO-backed
 * supply) or cost (VAT, levy, standing charges), so market-based emissions split the same way.
 */
export function byUser(rows: readonly MonthFigure[]): Record<UserPart, MonthFigure[]> {
  const out: Record<UserPart, MonthFigure[]> = { landlord: [], tenant: [], shared: [], unset: [] };
  for (const r of rows) {
    const split = r.split ?? {};
    const { split: _s, ...rest } = r;
    let left = { consumption: r.consumption, cost: r.cost, emissionsKg: r.emissionsKg };
    const share = (part: Pick<MonthFigure, 'consumption' | 'cost' | 'emissionsKg'>): MonthFigure => {
      const byUse = r.consumption ? part.consumption / r.consumption : 0;
      const byCost = r.cost ? part.cost / r.cost : 0;
      return {
        ...rest,
        ...part,
        ...(r.regoKwh !== undefined ? { regoKwh: r.regoKwh * byUse } : {}),
        ...(r.vat !== undefined ? { vat: r.vat * byCost } : {}),
        ...(r.ccl !== undefined ? { ccl: r.ccl * byCost } : {}),
        ...(r.standingCharge !== undefined ? { standingCharge: r.standingCharge * byCost } : {}),
      };
    };
    for (const user of USERS) {
      const part = {
        consumption: sumOf(split, [user], 'consumption'),
        cost: sumOf(split, [user], 'cost'),
        emissionsKg: sumOf(split, [user], 'emissionsKg'),
      };
      left = {
        consumption: left.consumption - part.consumption,
        cost: left.cost - part.cost,
        emissionsKg: left.emissionsKg - part.emissionsKg,
      };
      out[user].push(share(part));
    }
    out.unset.push(
      share({
        consumption: round(left.consumption, 3),
        cost: round(left.cost, 2),
        emissionsKg: round(left.emissionsKg, 3),
      }),
    );
  }
  return out;
}

function markUsers(into: Totals, parts: Partial<Record<UserPart, Totals>>): void {
  splitUtilities(into, USER_PARTS, parts, (figures, users) => {
    figures.users = users;
  });
}

/** Gives each utility figure, per bucket and in the totals, the part each meter user takes of it. */
export function withUsers(figures: Figures, byPart: Readonly<Record<UserPart, Figures>>): void {
  const keyed = USER_PARTS.map((u) => [u, new Map(byPart[u].buckets.map((b) => [b.key, b]))] as const);
  for (const bucket of figures.buckets)
    markUsers(bucket, Object.fromEntries(keyed.map(([u, m]) => [u, m.get(bucket.key)])));
  markUsers(figures.totals, Object.fromEntries(USER_PARTS.map((u) => [u, byPart[u].totals])));
}

/** One tenant's part of a site's figures: the months of the meters naming it. */
export interface TenantFigures {
  tenantId: string;
  /** The tenant's name, while it is a tenant of the site. */
  name?: string;
  totals: Totals;
}

/**
 * A site's tenant part split further by tenant, over the window: read from the months of the site's
 * meters that name their tenant (the roll-ups keep no split by tenant; a site has few such meters).
 * Limited to one source as the figures are.
 */
export async function tenantsOfSite(
  companyId: string,
  assetId: string,
  window: DateRange,
  ask: { utilities: readonly UtilityType[] | undefined; source?: 'invoices' | 'readings' },
  withCosts: boolean,
  basis: EmissionsBasis,
): Promise<TenantFigures[]> {
  const meters = (await tenantMetersOfSite(companyId, assetId)).filter(
    (m) => !ask.utilities || ask.utilities.includes(utilityOf(m)),
  );
  if (meters.length === 0) return [];
  const { from, to } = monthsOf(window);
  const byTenant = new Map<string, MonthFigure[]>();
  await inPool(meters, 8, async (meter) => {
    const utilityType = utilityOf(meter);
    const rows = (await listAccountMonths(companyId, meter._id, from, to)).map(
      (m): MonthFigure => ({
        month: m.month,
        utilityType,
        consumption: m.consumption,
        unit: m.unit,
        cost: m.cost,
        emissionsKg: m.emissionsKg,
        ...(m.regoKwh !== undefined ? { regoKwh: m.regoKwh } : {}),
        split: splitOf(m, rollupSourceOf(m.source), 'tenant'),
      }),
    );
    const tenantId = String(meter.meterUserTenantId);
    byTenant.set(tenantId, [
      ...(byTenant.get(tenantId) ?? []),
      ...(ask.source ? onlySource(rows, ask.source) : rows),
    ]);
  });
  const names = await tenantNamesOfSite(companyId, assetId);
  return [...byTenant]
    .map(([tenantId, rows]) => {
      const name = names.get(tenantId);
      return {
        tenantId,
        ...(name ? { name } : {}),
        totals: figuresOf(rows, window, 'yearly', 'standard', withCosts, basis).totals,
      };
    })
    .sort((a, b) => (a.name ?? a.tenantId).localeCompare(b.name ?? b.tenantId));
}
