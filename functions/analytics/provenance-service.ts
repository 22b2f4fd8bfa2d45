import type { Caller } from '../../shared/access/caller.ts';
import type { BoundingBox } from '../../shared/capture/textract.ts';
import {
  calculateEmissions,
  DEFAULT_ACTIVITIES,
  EMISSION_FACTORS,
  type EmissionFactor,
  factorNote,
  isFactorUtility,
  wasteActivity,
} from '../../shared/domain/emission-factors.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity, isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  type ProvenanceAnswer,
  type ProvenanceBill,
  type ProvenanceConfirmation,
  type ProvenanceFactor,
  type ProvenanceFigure,
  type ProvenanceMeter,
  type ProvenanceOtherPart,
  type ProvenancePosition,
  type ProvenanceQuery,
  type ProvenanceReading,
  type ProvenanceSite,
  type ProvenanceTotals,
  provenanceQuery,
} from '../../shared/schemas/provenance.ts';
import {
  findAccount,
  listAccountMonths,
  listAssetRollups,
  type StoredAccountMonth,
  utilityOf,
} from '../accounts/index.ts';
import { getCompany } from '../company/index.ts';
import { getItems } from '../core/data/batch-reads.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import type { OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { type MeterRef, resolveScope } from './analytics-scope.ts';
import { siteYearMonthRows } from './analytics-site-years.ts';
import { billsByIds, membersBySub, metersOfSite } from './provenance-repository.ts';

/** Parallel partition reads per request, as the other Insights calls read. */
const READ_CONCURRENCY = 8;
const DAY_MS = 86_400_000;

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const record = objectOf;
const dayOf = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

interface Window {
  from: string;
  to: string;
}

/** Days of [start, end] inside the window, both ends counted. */
function overlapDays(start: string, end: string, w: Window): number {
  const a = Math.max(dayOf(start), dayOf(w.from));
  const b = Math.min(dayOf(end), dayOf(w.to));
  return Math.max(0, b - a + 1);
}

function monthBounds(month: string): { start: string; end: string; days: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(days).padStart(2, '0')}`, days };
}

/**
 * The window's share of a month. Monthly figures are spread evenly over their days, as Insights buckets
 * them, so a figure for a window cutting a month matches the one Insights shows.
 */
function monthFraction(month: string, w: Window): number {
  const b = monthBounds(month);
  return overlapDays(b.start, b.end, w) / b.days;
}

/** A sum of figures at the precision they are shown: the parts shown add up to the figure shown. */
interface Amount {
  consumption: number;
  cost: number;
  emissionsKg: number;
}
const ZERO: Amount = { consumption: 0, cost: 0, emissionsKg: 0 };
const add = (a: Amount, b: Amount): Amount => ({
  consumption: round(a.consumption + b.consumption, 3),
  cost: round(a.cost + b.cost, 2),
  emissionsKg: round(a.emissionsKg + b.emissionsKg, 3),
});
const scale = (a: Amount, by: number): Amount => ({
  consumption: round(a.consumption * by, 3),
  cost: round(a.cost * by, 2),
  emissionsKg: round(a.emissionsKg * by, 3),
});
const isZero = (a: Amount) => a.consumption === 0 && a.cost === 0 && a.emissionsKg === 0;

function figureOf(a: Amount, unit: string, withCosts: boolean): ProvenanceFigure {
  return {
    consumption: a.consumption,
    unit,
    ...(withCosts ? { cost: a.cost } : {}),
    emissionsKg: a.emissionsKg,
  };
}

function totalsOf(
  meters: readonly { utilityType: string; amount: Amount; unit: string }[],
  withCosts: boolean,
) {
  const byUtility = new Map<string, { unit: string; amount: Amount }>();
  let all = ZERO;
  for (const m of meters) {
    const before = byUtility.get(m.utilityType) ?? { unit: m.unit, amount: ZERO };
    byUtility.set(m.utilityType, { unit: before.unit, amount: add(before.amount, m.amount) });
    all = add(all, m.amount);
  }
  const utilities: ProvenanceTotals['utilities'] = {};
  for (const [utility, u] of [...byUtility].sort(([a], [b]) => a.localeCompare(b))) {
    utilities[utility] = figureOf(u.amount, u.unit, withCosts);
  }
  const totals: ProvenanceTotals = {
    utilities,
    ...(withCosts ? { cost: all.cost } : {}),
    emissionsKg: all.emissionsKg,
  };
  return { totals, amount: all };
}

async function hidesCosts(companyId: string): Promise<boolean> {
  const settings = record((await getCompany(companyId))?.settings);
  return settings.hideCostData === true;
}

// ---------------------------------------------------------------- the factor behind a bill's emissions

function factorRow(f: EmissionFactor, year: number): ProvenanceFactor {
  const note = factorNote(f, year);
  return {
    ...(note ? { note } : {}),
    value: f.factor,
    unit: f.unit,
    activity: f.activity,
    scope: f.scope,
    year: f.year,
    set: f.source,
    version: f.version,
  };
}

/**
 * The factors a month's emissions were worked out with: the rows of the factor table whose version the
 * month recorded, else (a figure recorded under a version the table no longer holds) the rows the table
 * gives for that year today.
 */
function factorsFor(account: StoredItem, year: number, recorded: string | undefined): ProvenanceFactor[] {
  const utility = utilityOf(account);
  if (!isFactorUtility(utility)) return [];
  const activities =
    utility === 'waste' ? [wasteActivity(str(account.wasteCategory))] : DEFAULT_ACTIVITIES[utility];
  const versions = new Set((recorded ?? '').split('+'));
  const rows = EMISSION_FACTORS.filter(
    (f) => f.utility === utility && activities.includes(f.activity) && versions.has(f.version),
  );
  if (rows.length > 0) return rows.map((f) => factorRow(f, year));
  const unit = defaultUnit(utility);
  return (calculateEmissions({ utility, year, quantity: 1, unit, activities })?.factors ?? []).map((f) =>
    factorRow(f, year),
  );
}

// ---------------------------------------------------------------- one meter's parts

function invoiceIdsOf(m: StoredAccountMonth & { invoiceIds?: unknown }): string[] {
  const ids = new Set<string>();
  const held = m.invoiceIds;
  if (held instanceof Set) for (const id of held) if (typeof id === 'string') ids.add(id);
  if (Array.isArray(held)) for (const id of held) if (typeof id === 'string') ids.add(id);
  if (typeof m.invoiceId === 'string') ids.add(m.invoiceId);
  return [...ids];
}

interface Contribution {
  month: string;
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
  factorVersion?: string;
}

function contributionsOf(invoice: StoredItem): Contribution[] {
  if (!Array.isArray(invoice.contributions)) return [];
  return invoice.contributions.flatMap((raw) => {
    const c = record(raw);
    const month = str(c.month);
    if (!month) return [];
    return [
      {
        month,
        consumption: num(c.consumption) ?? 0,
        unit: str(c.unit) ?? '',
        cost: num(c.cost) ?? 0,
        emissionsKg: num(c.emissionsKg) ?? 0,
        factorVersion: str(c.factorVersion),
      },
    ];
  });
}

function periodOf(invoice: StoredItem): { start: string; end: string } | undefined {
  const values = record(invoice.values);
  const start = str(values.startDate) ?? str(invoice.invoiceStartDate);
  const end = str(values.endDate) ?? str(invoice.invoiceEndDate);
  return start && end && end >= start ? { start, end } : undefined;
}

function positionOf(value: unknown): ProvenancePosition | undefined {
  const v = record(value);
  const page = num(v.page);
  const box = record(v.bbox);
  const [Left, Top, Width, Height] = [num(box.Left), num(box.Top), num(box.Width), num(box.Height)];
  if (
    page === undefined ||
    Left === undefined ||
    Top === undefined ||
    Width === undefined ||
    Height === undefined
  )
    return undefined;
  const bbox: BoundingBox = { Left, Top, Width, Height };
  return { page, bbox, ...(str(v.text) ? { text: str(v.text) } : {}) };
}

function readingsOf(invoice: StoredItem): ProvenanceReading[] {
  const results = record(invoice.results);
  const extracted = Array.isArray(results.extractReadings) ? results.extractReadings : [];
  const read = extracted.flatMap((e) => {
    const list = record(e).readings;
    return Array.isArray(list) ? list.map(record) : [];
  });
  const values = record(invoice.values);
  const rows =
    read.length > 0
      ? read
      : num(values.openingRead) !== undefined || num(values.closingRead) !== undefined
        ? [{ ...values, readType: values.isEstimate === true ? 'estimated' : 'actual', date: values.endDate }]
        : [];
  return rows.map((r) => {
    const reading: ProvenanceReading = {};
    const serial = str(r.meterSerialNumber);
    if (serial) reading.meterSerialNumber = serial;
    const opening = num(r.openingRead);
    if (opening !== undefined) reading.openingRead = opening;
    const closing = num(r.closingRead);
    if (closing !== undefined) reading.closingRead = closing;
    const type = str(r.readType);
    if (type) reading.readType = type;
    const date = str(r.date);
    if (date) reading.date = date;
    return reading;
  });
}

function confirmationOf(invoice: StoredItem, names: ReadonlyMap<string, StoredItem>): ProvenanceConfirmation {
  const person = (sub: string | undefined) => {
    if (!sub) return undefined;
    const member = names.get(sub);
    const name = str(member?.name) ?? str(member?.email);
    return { sub, ...(name ? { name } : {}) };
  };
  const confirmedBy = str(invoice.confirmedBy);
  if (confirmedBy) {
    const at = str(invoice.confirmedAt);
    return { how: 'confirmed', by: person(confirmedBy), ...(at ? { at } : {}) };
  }
  if (invoice.status === 'completed' || invoice.completed === true) {
    const by = person(str(invoice.createdBy));
    const at = str(invoice.createdAt);
    return { how: 'imported', ...(by ? { by } : {}), ...(at ? { at } : {}) };
  }
  return { how: 'pending' };
}

interface MonthPart {
  month: string;
  amount: Amount;
  factorVersion?: string;
}

/** How one month's figure falls to the bills it holds, and what no bill holds. */
function splitMonth(
  m: StoredAccountMonth,
  unit: string,
  bills: readonly StoredItem[],
): { byBill: Map<string, MonthPart>; rest: Amount } {
  const whole: Amount = {
    consumption: convertQuantity(m.consumption, m.unit, unit) ?? 0,
    cost: Number(m.cost) || 0,
    emissionsKg: Number(m.emissionsKg) || 0,
  };
  const byBill = new Map<string, MonthPart>();
  let rest = whole;
  const without: { id: string; weight: number }[] = [];
  for (const bill of bills) {
    const c = contributionsOf(bill).find((x) => x.month === m.month);
    if (!c) {
      const period = periodOf(bill);
      const b = monthBounds(m.month);
      without.push({
        id: bill._id,
        weight: period ? overlapDays(period.start, period.end, { from: b.start, to: b.end }) : 1,
      });
      continue;
    }
    const amount: Amount = {
      consumption: convertQuantity(c.consumption, c.unit || unit, unit) ?? 0,
      cost: c.cost,
      emissionsKg: c.emissionsKg,
    };
    byBill.set(bill._id, {
      month: m.month,
      amount,
      ...(c.factorVersion ? { factorVersion: c.factorVersion } : {}),
    });
    rest = {
      consumption: rest.consumption - amount.consumption,
      cost: rest.cost - amount.cost,
      emissionsKg: rest.emissionsKg - amount.emissionsKg,
    };
  }
  // Bills counted without their shares on record (imported history) take the rest by their days in the month.
  const weights = without.reduce((s, w) => s + w.weight, 0);
  if (without.length > 0 && weights > 0) {
    for (const w of without) {
      byBill.set(w.id, {
        month: m.month,
        amount: scale(rest, w.weight / weights),
        factorVersion: m.factorVersion,
      });
    }
    rest = ZERO;
  }
  return { byBill, rest };
}

interface MeterRead {
  account: StoredItem;
  months: StoredAccountMonth[];
}

/** A meter's figure over the window as the sum of its bills' parts and of what no bill holds. */
function meterDetail(
  read: MeterRead,
  invoices: ReadonlyMap<string, StoredItem>,
  names: ReadonlyMap<string, StoredItem>,
  w: Window,
  withCosts: boolean,
): { meter: ProvenanceMeter; amount: Amount } {
  const { account } = read;
  const utility = utilityOf(account);
  const unit = defaultUnit(utility);
  const billParts = new Map<string, MonthPart[]>();
  const others: ProvenanceOtherPart[] = [];
  for (const m of read.months) {
    const fraction = monthFraction(m.month, w);
    if (fraction === 0) continue;
    const bills = invoiceIdsOf(m).flatMap((id) => invoices.get(id) ?? []);
    const { byBill, rest } = splitMonth(m, unit, bills);
    for (const [id, part] of byBill) {
      const list = billParts.get(id) ?? [];
      list.push({ ...part, amount: scale(part.amount, fraction) });
      billParts.set(id, list);
    }
    const left = scale(rest, fraction);
    if (!isZero(left)) {
      const kind = m.source === 'estimate' ? 'estimate' : m.source === 'import' ? 'import' : 'unattributed';
      others.push({
        kind,
        month: m.month,
        part: figureOf(left, unit, withCosts),
        ...(m.factorVersion ? { factorVersion: m.factorVersion } : {}),
      });
    }
  }
  let total = ZERO;
  const bills: ProvenanceBill[] = [];
  for (const [id, parts] of billParts) {
    const invoice = invoices.get(id);
    if (!invoice) continue;
    const amount = parts.reduce((s, p) => add(s, p.amount), ZERO);
    total = add(total, amount);
    bills.push(billDetail(invoice, account, parts, amount, unit, w, names, withCosts));
  }
  for (const o of others) {
    total = add(total, {
      consumption: o.part.consumption,
      cost: o.part.cost ?? 0,
      emissionsKg: o.part.emissionsKg,
    });
  }
  bills.sort((a, b) => a.period.start.localeCompare(b.period.start));
  others.sort((a, b) => a.month.localeCompare(b.month));
  const name = str(account.name);
  const mpn = str(account.meterPointNumber);
  return {
    meter: {
      _id: account._id,
      ...(name ? { name } : {}),
      utilityType: utility,
      ...(mpn ? { meterPointNumber: mpn } : {}),
      figure: figureOf(total, unit, withCosts),
      bills,
      others,
    },
    amount: total,
  };
}

function billDetail(
  invoice: StoredItem,
  account: StoredItem,
  parts: readonly MonthPart[],
  amount: Amount,
  unit: string,
  w: Window,
  names: ReadonlyMap<string, StoredItem>,
  withCosts: boolean,
): ProvenanceBill {
  const values = record(invoice.values);
  const firstMonth = parts[0]?.month ?? w.from.slice(0, 7);
  const period = periodOf(invoice) ?? {
    start: monthBounds(firstMonth).start,
    end: monthBounds(parts.at(-1)?.month ?? firstMonth).end,
  };
  const days = dayOf(period.end) - dayOf(period.start) + 1;
  const daysInWindow = overlapDays(period.start, period.end, w);
  const factors = new Map<string, ProvenanceFactor>();
  for (const p of parts) {
    for (const f of factorsFor(account, Number(p.month.slice(0, 4)), p.factorVersion)) {
      factors.set(`${f.version}#${f.activity}`, f);
    }
  }
  const results = record(invoice.results);
  const read = record(results.values);
  const positions: ProvenanceBill['positions'] = {};
  for (const key of ['grossTotal', 'netTotal', 'consumption'] as const) {
    const at = positionOf(read[key]);
    if (at) positions[key] = at;
  }
  const invoiceNumber = str(invoice.invoiceNumber) ?? str(values.invoiceNumber);
  const fileName = str(invoice.fileName);
  const consumption = num(values.consumption);
  const billUnit = str(values.consumptionUnit) ?? (consumption !== undefined ? unit : undefined);
  const netTotal = num(values.netTotal);
  const grossTotal = num(values.grossTotal) ?? num(invoice.grossTotal);
  return {
    invoiceId: invoice._id,
    ...(invoiceNumber ? { invoiceNumber } : {}),
    period,
    days,
    daysInWindow,
    share: round(days > 0 ? daysInWindow / days : 0, 6),
    bill: {
      ...(consumption !== undefined ? { consumption } : {}),
      ...(billUnit ? { unit: billUnit } : {}),
      ...(withCosts && netTotal !== undefined ? { netTotal } : {}),
      ...(withCosts && grossTotal !== undefined ? { grossTotal } : {}),
    },
    part: figureOf(amount, unit, withCosts),
    months: parts.map((p) => ({
      month: p.month,
      consumption: p.amount.consumption,
      ...(withCosts ? { cost: p.amount.cost } : {}),
      emissionsKg: p.amount.emissionsKg,
      ...(p.factorVersion ? { factorVersion: p.factorVersion } : {}),
    })),
    factors: [...factors.values()],
    confirmation: confirmationOf(invoice, names),
    positions: withCosts
      ? positions
      : { ...(positions.consumption ? { consumption: positions.consumption } : {}) },
    readings: readingsOf(invoice),
    hasDocument: typeof invoice.key === 'string' && invoice.key !== '',
    ...(fileName ? { fileName } : {}),
  };
}

/** Reads the meters' months, then every bill they name and every person who confirmed one, in batches. */
async function metersDetail(
  companyId: string,
  accounts: readonly StoredItem[],
  w: Window,
  withCosts: boolean,
): Promise<{ meters: ProvenanceMeter[]; amounts: Map<string, Amount> }> {
  const from = w.from.slice(0, 7);
  const to = w.to.slice(0, 7);
  const reads: MeterRead[] = await inPool(accounts, READ_CONCURRENCY, async (account) => ({
    account,
    months: await listAccountMonths(companyId, account._id, from, to),
  }));
  const ids = reads.flatMap((r) =>
    r.months.filter((m) => monthFraction(m.month, w) > 0).flatMap(invoiceIdsOf),
  );
  const invoices = await billsByIds(companyId, ids);
  const subs = [...invoices.values()].flatMap((i) => [str(i.confirmedBy) ?? str(i.createdBy) ?? []].flat());
  const names = await membersBySub(companyId, subs);
  const meters: ProvenanceMeter[] = [];
  const amounts = new Map<string, Amount>();
  for (const read of reads) {
    const { meter, amount } = meterDetail(read, invoices, names, w, withCosts);
    meters.push(meter);
    amounts.set(meter._id, amount);
  }
  return { meters, amounts };
}

// ---------------------------------------------------------------- the three levels

const live = (item: StoredItem | undefined) => (item && item.deleted !== true ? item : undefined);

async function siteNames(companyId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const found = await getItems(scopeCollectionPk(companyId, 'assets'), ids);
  return new Map(
    [...found.values()].flatMap((a) => (str(a.siteName) ? [[a._id, String(a.siteName)] as const] : [])),
  );
}

function siteOf(
  assetId: string,
  siteName: string | undefined,
  meters: ProvenanceMeter[],
  amounts: ReadonlyMap<string, Amount>,
  withCosts: boolean,
): { site: ProvenanceSite; amount: Amount } {
  const { totals, amount } = totalsOf(
    meters.map((m) => ({
      utilityType: m.utilityType,
      unit: m.figure.unit,
      amount: amounts.get(m._id) ?? ZERO,
    })),
    withCosts,
  );
  return { site: { _id: assetId, ...(siteName ? { siteName } : {}), figure: totals, meters }, amount };
}

const wants = (utility: UtilityType | undefined) => (a: StoredItem) => !utility || utilityOf(a) === utility;

/** One meter, when the caller may read its site whole or was granted the meter. */
async function meterLevel(
  caller: Caller,
  q: ProvenanceQuery,
  accountId: string,
  w: Window,
  withCosts: boolean,
) {
  const companyId = caller.companyId;
  const account = live(await findAccount(companyId, accountId));
  const assetId = str(account?.assetId);
  if (!account || !assetId || (q.assetId && q.assetId !== assetId)) throw notFound();
  const scope = await resolveScope(caller, { assetId });
  const readable =
    scope.sites.some((s) => s._id === assetId) || scope.meters.some((m) => m._id === account._id);
  if (!readable) throw notFound();
  const accounts = wants(q.utilityType)(account) ? [account] : [];
  const { meters, amounts } = await metersDetail(companyId, accounts, w, withCosts);
  const name =
    scope.sites.find((s) => s._id === assetId)?.siteName ??
    (await siteNames(companyId, [assetId])).get(assetId);
  return [siteOf(assetId, name, meters, amounts, withCosts)];
}

/** One site: its main meters (sub-meters are inside their parent's figures), or those granted on it. */
async function siteLevel(caller: Caller, q: ProvenanceQuery, assetId: string, w: Window, withCosts: boolean) {
  const companyId = caller.companyId;
  const scope = await resolveScope(caller, { assetId });
  const whole = scope.sites.find((s) => s._id === assetId);
  let accounts: StoredItem[];
  if (whole) {
    accounts = (await metersOfSite(companyId, assetId)).filter((a) => a.deleted !== true && !isSubMeter(a));
  } else {
    const found = await getItems(
      scopeCollectionPk(companyId, 'accounts'),
      scope.meters.map((m) => m._id),
    );
    accounts = [...found.values()].filter((a) => a.deleted !== true);
  }
  accounts = accounts
    .filter(wants(q.utilityType))
    .sort((a, b) => String(a.name ?? '').localeCompare(String(b.name ?? '')));
  const [{ meters, amounts }, recorded] = await Promise.all([
    metersDetail(companyId, accounts, w, withCosts),
    whole ? rollupTotals(companyId, assetId, w, q.utilityType, withCosts) : undefined,
  ]);
  const name = whole?.siteName ?? (await siteNames(companyId, [assetId])).get(assetId);
  const built = siteOf(assetId, name, meters, amounts, withCosts);
  if (recorded) built.site.recorded = recorded.totals;
  return [built];
}

/** A site's figure as Insights reads it: its monthly roll-ups, each month taken by the window's share. */
async function rollupTotals(
  companyId: string,
  assetId: string,
  w: Window,
  utilityType: UtilityType | undefined,
  withCosts: boolean,
) {
  const rows = await listAssetRollups(companyId, assetId, w.from.slice(0, 7), w.to.slice(0, 7), utilityType);
  const parts = rows.flatMap((r) => {
    const fraction = monthFraction(r.month, w);
    if (fraction === 0) return [];
    const unit = defaultUnit(r.utilityType);
    const amount = scale(
      {
        consumption: convertQuantity(Number(r.consumption) || 0, r.unit, unit) ?? 0,
        cost: Number(r.cost) || 0,
        emissionsKg: Number(r.emissionsKg) || 0,
      },
      fraction,
    );
    return [{ utilityType: r.utilityType, unit, amount }];
  });
  return totalsOf(parts, withCosts);
}

/**
 * From this many sites, their figures come from the company's site years (one partition, read a year at a
 * time) rather than a Query of each site's roll-ups: a few pages for thousands of sites, whatever the window.
 */
const SITE_YEARS_FROM = 20;

/**
 * Sites' figures over a window from the site-year store: each month the window touches, taken by the
 * window's share as `rollupTotals` takes it. Answers only the sites with figures in the window.
 */
async function siteYearTotals(
  companyId: string,
  assetIds: ReadonlySet<string>,
  w: Window,
  utilityType: UtilityType | undefined,
  withCosts: boolean,
) {
  const parts = new Map<string, { utilityType: UtilityType; unit: string; amount: Amount }[]>();
  for (const row of await siteYearMonthRows(
    companyId,
    Number(w.from.slice(0, 4)),
    Number(w.to.slice(0, 4)),
  )) {
    if (!assetIds.has(row.assetId) || (utilityType && row.utilityType !== utilityType)) continue;
    const unit = defaultUnit(row.utilityType);
    const ofSite = parts.get(row.assetId) ?? [];
    row.months.forEach((m, i) => {
      const fraction = monthFraction(`${row.year}-${String(i + 1).padStart(2, '0')}`, w);
      if (fraction === 0 || (m.consumption === 0 && m.cost === 0 && m.emissionsKg === 0)) return;
      const monthly: Amount = {
        consumption: convertQuantity(m.consumption, row.unit, unit) ?? 0,
        cost: m.cost,
        emissionsKg: m.emissionsKg,
      };
      ofSite.push({ utilityType: row.utilityType, unit, amount: scale(monthly, fraction) });
    });
    parts.set(row.assetId, ofSite);
  }
  return new Map([...parts].map(([assetId, p]) => [assetId, totalsOf(p, withCosts)]));
}

/** Every site the caller may read, each with its figure from its monthly roll-ups. */
async function companyLevel(caller: Caller, q: ProvenanceQuery, w: Window, withCosts: boolean) {
  const companyId = caller.companyId;
  const scope = await resolveScope(caller, { bySite: true });
  const from = w.from.slice(0, 7);
  const to = w.to.slice(0, 7);
  const stored =
    scope.sites.length >= SITE_YEARS_FROM
      ? await siteYearTotals(companyId, new Set(scope.sites.map((s) => s._id)), w, q.utilityType, withCosts)
      : undefined;
  const fromRollups = await inPool(scope.sites, READ_CONCURRENCY, async (site) => {
    const { totals, amount } =
      stored?.get(site._id) ??
      (stored
        ? totalsOf([], withCosts)
        : await rollupTotals(companyId, site._id, w, q.utilityType, withCosts));
    return {
      site: { _id: site._id, ...(site.siteName ? { siteName: site.siteName } : {}), figure: totals },
      amount,
    };
  });
  // Meters granted one by one, on sites the caller may not read whole: summed site by site.
  const granted = scope.meters.filter((m: MeterRef) => !q.utilityType || m.utilityType === q.utilityType);
  const bySite = new Map<string, MeterRef[]>();
  for (const m of granted) if (m.assetId) bySite.set(m.assetId, [...(bySite.get(m.assetId) ?? []), m]);
  const names = await siteNames(companyId, [...bySite.keys()]);
  const fromMeters = await inPool([...bySite], READ_CONCURRENCY, async ([assetId, refs]) => {
    const parts = await inPool(refs, READ_CONCURRENCY, async (ref) => {
      const unit = defaultUnit(ref.utilityType);
      const months = await listAccountMonths(companyId, ref._id, from, to);
      const amount = months.reduce((sum, m) => {
        const monthly: Amount = {
          consumption: convertQuantity(m.consumption, m.unit, unit) ?? 0,
          cost: Number(m.cost) || 0,
          emissionsKg: Number(m.emissionsKg) || 0,
        };
        return add(sum, scale(monthly, monthFraction(m.month, w)));
      }, ZERO);
      return { utilityType: ref.utilityType, unit, amount };
    });
    const { totals, amount } = totalsOf(parts, withCosts);
    const siteName = names.get(assetId);
    return { site: { _id: assetId, ...(siteName ? { siteName } : {}), figure: totals }, amount };
  });
  return [...fromRollups, ...fromMeters]
    .filter((s) => Object.keys(s.site.figure.utilities).length > 0)
    .sort((a, b) => b.amount.emissionsKg - a.amount.emissionsKg || a.site._id.localeCompare(b.site._id));
}

/** Where a figure of Insights comes from: sites, then meters, then the bills and what no bill holds. */
export async function provenanceOf(caller: Caller, q: ProvenanceQuery): Promise<ProvenanceAnswer> {
  const w: Window = { from: q.from, to: q.to };
  const withCosts = !(await hidesCosts(caller.companyId));
  const level = q.accountId ? 'meter' : q.assetId ? 'site' : 'company';
  const sites = q.accountId
    ? await meterLevel(caller, q, q.accountId, w, withCosts)
    : q.assetId
      ? await siteLevel(caller, q, q.assetId, w, withCosts)
      : await companyLevel(caller, q, w, withCosts);
  const utilities = new Map<string, { unit: string; amount: Amount }>();
  for (const s of sites) {
    for (const [utility, f] of Object.entries(s.site.figure.utilities)) {
      if (!f) continue;
      const before = utilities.get(utility) ?? { unit: f.unit, amount: ZERO };
      utilities.set(utility, {
        unit: f.unit,
        amount: add(before.amount, {
          consumption: f.consumption,
          cost: f.cost ?? 0,
          emissionsKg: f.emissionsKg,
        }),
      });
    }
  }
  const { totals } = totalsOf(
    [...utilities].map(([utilityType, u]) => ({ utilityType, unit: u.unit, amount: u.amount })),
    withCosts,
  );
  return {
    window: { from: q.from, to: q.to },
    ...(q.utilityType ? { utilityType: q.utilityType } : {}),
    costsIncluded: withCosts,
    level,
    figure: totals,
    sites: sites.map((s) => s.site),
  };
}

/** GET /analytics/provenance (loaded on first call, see provenance-operations.ts) */
export const provenance = operation(
  { query: provenanceQuery },
  async (ctx): Promise<OpResult> => ({ body: await provenanceOf(ctx.caller, ctx.query) }),
);
