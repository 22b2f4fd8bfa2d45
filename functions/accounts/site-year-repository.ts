/**
 * | pattern | key condition | index |
 * |---|---|---|
 * | every site's yearly figures by utility over a span of years | `pk = C#{companyId}#rollup#site-years`, `sk BETWEEN {from}# AND {to}#~` | table |
 * | every site's whole years over a span of years | `pk` as above, `sk BETWEEN total#{from}# AND total#{to}#~` | table |
 * | some sites' whole years in one year (strongly) | BatchGet `pk` as above, `sk = total#{year}#{assetId}` | table |
 * | add to one site, year and utility (atomic ADD, once per invoice month) | `pk` as above, `sk = {year}#{assetId}#{utility}` | table |
 * | copy one utility's year onto the site's whole year (newest revision wins) | `pk` as above, `sk = total#{year}#{assetId}` | table |
 * | add to many site years at once (an import's), then copy them | TransactWrite of ≤ 100 ADDs, consistent BatchGet of the same keys, TransactWrite of ≤ 100 copies | table |
 * | replace one site's years (rebuilding from its roll-ups) | `pk` as above, `sk = {year}#{assetId}#{utility}` | table |
 * | whether the company's site years are complete | `pk` as above, `sk = built` | table |
 *
 * Every write moves the change mark of each year it writes (the one of all years when it may write any)
 * before and after it, naming itself as under way in between and its sites in the year's journal
 * (change-marks.ts), so tables kept from the whole years know which years, and which sites, are stale.
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { UTILITY_TYPES } from '../../shared/schemas/mini-fields.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { eachBatchGot } from '../core/data/batch-reads.ts';
import { batchWrite } from '../core/data/batch-writes.ts';
import { type ChangeMark, writingUnder, yearMark } from '../core/data/change-marks.ts';
import { eachQueried, queryMapped } from '../core/data/query-pages.ts';
import {
  backOff,
  cancellationCodes,
  type ItemUpdate,
  MAX_TRANSACTION_ACTIONS,
  MAX_TRANSACTION_ATTEMPTS,
} from '../core/data/transactions.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { partAdds, ROLLUP_PARTS, type RollupParts } from './rollup-parts.ts';

/**
 * Each site's figures by calendar year and utility, all sites of a company in one partition: what a
 * portfolio-wide table of sites by year (benchmarks, the calendar, target progress) reads in a few pages
 * instead of one query per site. Kept by the same deltas as the sites' monthly roll-ups, with each month's
 * consumption, emissions and cost on the item as well (`m01`…`m12`, `e01`…, `c01`…), so a year knows how
 * many of its months hold figures and any window of months is read from the years it touches.
 *
 * Beside them, one item per site and year holds each utility's year in short (figures, the months held as a
 * bit mask, the revision it was copied at): a table of thousands of sites reads one small item per site-year
 * instead of one per utility with twelve month fields each. Every write to a utility's year counts a
 * revision and copies the year it produced onto the whole year, only over an older revision, so writes
 * landing out of order still leave the newest figures.
 */
const pkOf = (companyId: string) => `C#${companyId}#rollup#site-years`;
const skOf = (year: string, assetId: string, utilityType: UtilityType) => `${year}#${assetId}#${utilityType}`;
const totalSkOf = (year: string, assetId: string) => `total#${year}#${assetId}`;
const BUILT_SK = 'built';
const monthAttribute = (month: string) => `m${month.slice(5, 7)}`;
const monthEmissionsAttribute = (month: string) => `e${month.slice(5, 7)}`;
const monthCostAttribute = (month: string) => `c${month.slice(5, 7)}`;
const MONTH_NUMBERS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
const MONTH_ATTRIBUTES = MONTH_NUMBERS.map((mm) => `m${mm}`);
const MONTH_EMISSIONS_ATTRIBUTES = MONTH_NUMBERS.map((mm) => `e${mm}`);
const MONTH_COST_ATTRIBUTES = MONTH_NUMBERS.map((mm) => `c${mm}`);

/** One month's figures of a site and utility, as the year item keeps them beside its totals. */
export interface SiteMonthFigures {
  consumption: number;
  cost: number;
  emissionsKg: number;
}

/** The attributes a change to one month adds to: its consumption, emissions and cost. */
const monthAddsOf = (month: string, f: SiteMonthFigures): [string, number][] => [
  [monthAttribute(month), f.consumption],
  [monthEmissionsAttribute(month), f.emissionsKg],
  [monthCostAttribute(month), f.cost],
];

/** A change to one site's month of one utility, as its monthly roll-up takes it. */
export interface SiteYearDelta extends RollupParts {
  consumption: number;
  cost: number;
  emissionsKg: number;
  unit: string;
}

/** One site's figures in one calendar year and utility. */
export interface SiteYearRollup extends RollupParts {
  assetId: string;
  year: number;
  utilityType: UtilityType;
  unit: string;
  consumption: number;
  cost: number;
  emissionsKg: number;
  /** The months (1–12) of the year whose consumption is not zero. */
  monthsHeld: number[];
}

/** A site's year of one utility with each month's figures, January first. */
export interface SiteYearMonths extends SiteYearRollup {
  months: SiteMonthFigures[];
}

/**
 * Adds one site month's change to its year. With `once` (an invoice's id), the write happens once however
 * often it is retried, as the monthly roll-ups' invoice writes do.
 */
export async function addToSiteYear(
  companyId: string,
  assetId: string,
  month: string,
  utilityType: UtilityType,
  delta: SiteYearDelta,
  once?: { invoiceId: string; sign: 1 | -1 },
): Promise<void> {
  const sign = once?.sign ?? 1;
  await addToYear(
    companyId,
    assetId,
    month.slice(0, 4),
    utilityType,
    signed(delta, sign),
    monthAddsOf(month, {
      consumption: sign * delta.consumption,
      cost: sign * delta.cost,
      emissionsKg: sign * delta.emissionsKg,
    }),
    once && { key: `${once.invoiceId}#${month}`, sign: once.sign },
  );
}

/**
 * Adds changes to several months of one site's year and utility in one write (roll-ups replaced whole:
 * the change is what they gained or lost). With `once`, the write happens once for that key.
 */
export async function addMonthsToSiteYear(
  companyId: string,
  assetId: string,
  year: string,
  utilityType: UtilityType,
  delta: SiteYearDelta,
  months: ReadonlyMap<string, SiteMonthFigures>,
  once?: { key: string },
): Promise<void> {
  await addToYear(
    companyId,
    assetId,
    year,
    utilityType,
    delta,
    [...months].flatMap(([month, f]) => monthAddsOf(month, f)),
    once && { key: once.key, sign: 1 },
  );
}

function signed(delta: SiteYearDelta, sign: 1 | -1): SiteYearDelta {
  if (sign === 1) return delta;
  const out: SiteYearDelta = {
    unit: delta.unit,
    consumption: -delta.consumption,
    cost: -delta.cost,
    emissionsKg: -delta.emissionsKg,
  };
  for (const part of ROLLUP_PARTS) {
    const v = delta[part];
    if (v !== undefined) out[part] = -v;
  }
  return out;
}

/** The update, condition, names and values of a change to one utility's year. */
function yearUpdate(
  delta: SiteYearDelta,
  monthAdds: readonly (readonly [string, number])[],
  once?: { key: string; sign: 1 | -1 },
) {
  const names: Record<string, string> = {
    '#consumption': 'consumption',
    '#cost': 'cost',
    '#emissions': 'emissionsKg',
    '#unit': 'unit',
  };
  const values: Record<string, unknown> = {
    ':consumption': delta.consumption,
    ':cost': delta.cost,
    ':emissions': delta.emissionsKg,
    ':unit': delta.unit,
  };
  const parts = partAdds(delta);
  Object.assign(names, parts.names);
  Object.assign(values, parts.values);
  names['#rev'] = 'rev';
  values[':one'] = 1;
  const adds = [
    '#consumption :consumption',
    '#cost :cost',
    '#emissions :emissions',
    '#rev :one',
    ...parts.adds,
  ];
  monthAdds.forEach(([attribute, v], i) => {
    names[`#m${i}`] = attribute;
    values[`:m${i}`] = v;
    adds.push(`#m${i} :m${i}`);
  });
  let update = `ADD ${adds.join(', ')} SET #unit = :unit`;
  // Figures in different units must never be summed into one year.
  let condition = 'attribute_not_exists(#unit) OR #unit = :unit';
  if (once) {
    names['#invoices'] = 'invoiceIds';
    values[':ids'] = new Set([once.key]);
    values[':id'] = once.key;
    update =
      once.sign === 1
        ? `ADD ${adds.join(', ')}, #invoices :ids SET #unit = :unit`
        : `ADD ${adds.join(', ')} DELETE #invoices :ids SET #unit = :unit`;
    condition =
      once.sign === 1
        ? '(attribute_not_exists(#invoices) OR NOT contains(#invoices, :id)) AND (attribute_not_exists(#unit) OR #unit = :unit)'
        : 'contains(#invoices, :id)';
  }
  return {
    UpdateExpression: update,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

async function addToYear(
  companyId: string,
  assetId: string,
  year: string,
  utilityType: UtilityType,
  delta: SiteYearDelta,
  monthAdds: readonly (readonly [string, number])[],
  once?: { key: string; sign: 1 | -1 },
): Promise<void> {
  await writingUnder(
    companyId,
    [yearMark(year)],
    () => addToYearUnmarked(companyId, assetId, year, utilityType, delta, monthAdds, once),
    changedSites([{ year, assetId }]),
  );
}

/** The sites each year's mark names as changed by writes to these site years. */
function changedSites(writes: readonly { year: string; assetId: string }[]): Map<ChangeMark, string[]> {
  const out = new Map<ChangeMark, string[]>();
  for (const { year, assetId } of writes) {
    const mark = yearMark(year);
    const sites = out.get(mark);
    if (!sites) out.set(mark, [assetId]);
    else if (!sites.includes(assetId)) sites.push(assetId);
  }
  return out;
}

async function addToYearUnmarked(
  companyId: string,
  assetId: string,
  year: string,
  utilityType: UtilityType,
  delta: SiteYearDelta,
  monthAdds: readonly (readonly [string, number])[],
  once?: { key: string; sign: 1 | -1 },
): Promise<void> {
  let written: Record<string, unknown> | undefined;
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: pkOf(companyId), sk: skOf(year, assetId, utilityType) },
        ...yearUpdate(delta, monthAdds, once),
        ReturnValues: 'ALL_NEW',
      }),
    );
    written = out.Attributes;
  } catch (err) {
    if (!(once && err instanceof Error && err.name === 'ConditionalCheckFailedException')) throw err;
    // An invoice's month already counted (or already taken back): the condition did its work. The write
    // that counted it may have died before copying onto the whole year; copying again is harmless.
    written = (
      await documentClient().send(
        new GetCommand({
          TableName: config().tableName,
          Key: { pk: pkOf(companyId), sk: skOf(year, assetId, utilityType) },
          ConsistentRead: true,
        }),
      )
    ).Item;
  }
  if (written) await copyToWholeYear(companyId, year, assetId, utilityType, written);
}

/** Changes to several months of one site's year and utility, as many sites' years are written together. */
export interface SiteYearWrite {
  assetId: string;
  /** YYYY */
  year: string;
  utilityType: UtilityType;
  delta: SiteYearDelta;
  months: ReadonlyMap<string, SiteMonthFigures>;
  /** As `addMonthsToSiteYear`'s: the change is added once for this key. */
  once?: { key: string };
}

/**
 * Sends updates as one transaction, again whole when it collides with another writer; answers false
 * when a condition refused one of them (then none was written) or collisions went on, for the caller to
 * write them one by one.
 */
async function inOneTransaction(updates: readonly ItemUpdate[]): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: updates.map((u) => ({ Update: { TableName: config().tableName, ...u } })),
        }),
      );
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes.includes('ConditionalCheckFailed') || attempt >= MAX_TRANSACTION_ATTEMPTS) return false;
      await backOff(attempt);
    }
  }
}

/**
 * The same adds as `addMonthsToSiteYear` for many site years (an import's), a hundred to a transaction.
 * A single add answers the year it left, which its whole year copies; here the years are read back
 * (consistently) after their transaction and copied a hundred to a transaction as well, under the same
 * revision rule: a concurrent writer's later revision read instead is as good, since its copy wins anyway.
 * A transaction that a unit condition refuses is written year by year, so that year alone is refused.
 */
export async function addManyToSiteYears(
  companyId: string,
  writes: readonly SiteYearWrite[],
  limit = 8,
): Promise<void> {
  const pk = pkOf(companyId);
  // A transaction may name an item once: a second change to a year (in another unit) is written alone.
  const seen = new Set<string>();
  const together: SiteYearWrite[] = [];
  const alone: SiteYearWrite[] = [];
  for (const w of writes) {
    const sk = skOf(w.year, w.assetId, w.utilityType);
    if (seen.has(sk)) alone.push(w);
    else {
      seen.add(sk);
      together.push(w);
    }
  }
  const addsOf = (w: SiteYearWrite) => [...w.months].flatMap(([month, f]) => monthAddsOf(month, f));
  const onceOf = (w: SiteYearWrite) => w.once && { key: w.once.key, sign: 1 as const };
  const single = (w: SiteYearWrite) =>
    addToYear(companyId, w.assetId, w.year, w.utilityType, w.delta, addsOf(w), onceOf(w));
  const groups: SiteYearWrite[][] = [];
  for (let i = 0; i < together.length; i += MAX_TRANSACTION_ACTIONS)
    groups.push(together.slice(i, i + MAX_TRANSACTION_ACTIONS));
  let refused: unknown;
  const yearsOf = (group: readonly SiteYearWrite[]) => [...new Set(group.map((w) => yearMark(w.year)))];
  await inPool(groups, limit, async (group) => {
    if (group.length > 1)
      await writingUnder(companyId, yearsOf(group), () => writeGroup(group), changedSites(group));
    else await single(group[0] as SiteYearWrite).catch((e: unknown) => (refused ??= e));
  });
  for (const w of alone) await single(w).catch((e: unknown) => (refused ??= e));
  if (refused) throw refused;

  /** A group's adds in one transaction, then its years copied; year by year when a condition refuses it. */
  async function writeGroup(group: readonly SiteYearWrite[]): Promise<void> {
    const added = await inOneTransaction(
      group.map((w) => ({
        Key: { pk, sk: skOf(w.year, w.assetId, w.utilityType) },
        ...yearUpdate(w.delta, addsOf(w), onceOf(w)),
      })),
    );
    if (!added) {
      for (const w of group) await single(w).catch((e: unknown) => (refused ??= e));
      return;
    }
    const copies: { year: string; assetId: string; utilityType: UtilityType; figures: UtilityYear }[] = [];
    await eachBatchGot(
      group.map((w) => ({ pk, sk: skOf(w.year, w.assetId, w.utilityType) })),
      (raw) => {
        const [year = '', assetId = '', utilityType = ''] = String(raw.sk).split('#');
        copies.push({ year, assetId, utilityType: utilityType as UtilityType, figures: utilityYearOf(raw) });
      },
      1,
      true,
    );
    // A site's utilities share its whole year, which a transaction may name once: one utility a round.
    const rounds: { keys: Set<string>; copies: typeof copies }[] = [];
    for (const c of copies) {
      const sk = totalSkOf(c.year, c.assetId);
      let round = rounds.find((r) => !r.keys.has(sk));
      if (!round) {
        round = { keys: new Set(), copies: [] };
        rounds.push(round);
      }
      round.keys.add(sk);
      round.copies.push(c);
    }
    for (const { copies: round } of rounds) {
      const copied =
        round.length > 1 &&
        (await inOneTransaction(
          round.map((c) => ({ Key: { pk, sk: totalSkOf(c.year, c.assetId) }, ...wholeYearUpdate(c) })),
        ));
      if (!copied)
        for (const c of round)
          await copyFiguresToWholeYear(companyId, c.year, c.assetId, c.utilityType, c.figures);
    }
  }
}

/** One utility's year as the site's whole year keeps it. */
interface UtilityYear extends RollupParts {
  unit: string;
  consumption: number;
  cost: number;
  emissionsKg: number;
  /** Bit `m - 1` is set when month `m` holds consumption. */
  months: number;
  rev: number;
}

/**
 * The months of a utility's year that hold consumption, as a mask (bit `m - 1` for month `m`): the one rule
 * for both the whole years' copies and the years read by utility.
 */
function monthsHeldMask(raw: Record<string, unknown>): number {
  let months = 0;
  MONTH_ATTRIBUTES.forEach((m, i) => {
    // Rounding leaves crumbs where a bill was added and taken back: a month under a thousandth is empty.
    if (Math.abs(Number(raw[m]) || 0) >= 0.001) months |= 1 << i;
  });
  return months;
}

function utilityYearOf(raw: Record<string, unknown>): UtilityYear {
  const months = monthsHeldMask(raw);
  const out: UtilityYear = {
    unit: String(raw.unit ?? ''),
    consumption: Number(raw.consumption) || 0,
    cost: Number(raw.cost) || 0,
    emissionsKg: Number(raw.emissionsKg) || 0,
    months,
    rev: Number(raw.rev) || 0,
  };
  for (const part of ROLLUP_PARTS) if (typeof raw[part] === 'number') out[part] = raw[part];
  return out;
}

/** The write that copies a utility's year onto its site's whole year, over older revisions only. */
const wholeYearUpdate = (c: { utilityType: UtilityType; figures: UtilityYear }) => ({
  UpdateExpression: 'SET #u = :figures',
  ConditionExpression: 'attribute_not_exists(#u) OR #u.#rev < :rev',
  ExpressionAttributeNames: { '#u': c.utilityType, '#rev': 'rev' },
  ExpressionAttributeValues: { ':figures': c.figures, ':rev': c.figures.rev },
});

/**
 * Copies a utility's year, as one write left it, onto the site's whole year, unless a later write's copy
 * (a higher revision) is already there: concurrent writes to one utility finish in any order.
 */
async function copyToWholeYear(
  companyId: string,
  year: string,
  assetId: string,
  utilityType: UtilityType,
  raw: Record<string, unknown>,
): Promise<void> {
  await copyFiguresToWholeYear(companyId, year, assetId, utilityType, utilityYearOf(raw));
}

async function copyFiguresToWholeYear(
  companyId: string,
  year: string,
  assetId: string,
  utilityType: UtilityType,
  figures: UtilityYear,
): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: pkOf(companyId), sk: totalSkOf(year, assetId) },
        ...wholeYearUpdate({ utilityType, figures }),
      }),
    );
  } catch (err) {
    if (err instanceof Error && err.name === 'ConditionalCheckFailedException') return;
    throw err;
  }
}

/** A monthly roll-up row of a site, as rebuilding its years reads it. */
export interface SiteMonthRow extends SiteYearDelta {
  month: string;
  utilityType: UtilityType;
  invoiceIds?: ReadonlySet<string>;
}

/**
 * Writes a site's years whole from its monthly roll-ups, replacing what they held: for filling the store
 * from roll-ups written before it existed, or written around the deltas.
 */
export async function replaceSiteYears(
  companyId: string,
  assetId: string,
  rows: readonly SiteMonthRow[],
): Promise<void> {
  // Above every revision the deltas have counted since an earlier rebuild (far fewer than a thousand a
  // millisecond), so the rebuilt years replace the whole years' copies and later deltas count on from it.
  const rev = Date.now() * 1000;
  const items = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const sk = skOf(row.month.slice(0, 4), assetId, row.utilityType);
    const item = items.get(sk) ?? {
      pk: pkOf(companyId),
      sk,
      unit: row.unit,
      consumption: 0,
      cost: 0,
      emissionsKg: 0,
      rev,
    };
    item.consumption = Number(item.consumption) + row.consumption;
    item.cost = Number(item.cost) + row.cost;
    item.emissionsKg = Number(item.emissionsKg) + row.emissionsKg;
    for (const [m, v] of monthAddsOf(row.month, row)) item[m] = (Number(item[m]) || 0) + v;
    for (const part of ROLLUP_PARTS)
      if (row[part] !== undefined) item[part] = (Number(item[part]) || 0) + (row[part] ?? 0);
    if (row.invoiceIds && row.invoiceIds.size > 0) {
      const ids = (item.invoiceIds as Set<string> | undefined) ?? new Set<string>();
      for (const id of row.invoiceIds) ids.add(`${id}#${row.month}`);
      item.invoiceIds = ids;
    }
    items.set(sk, item);
  }
  const years = [...new Set(rows.map((row) => yearMark(row.month.slice(0, 4))))];
  await writingUnder(
    companyId,
    years,
    async () => {
      await batchWrite([...items.values()].map((Item) => ({ PutRequest: { Item } })));
      await inPool([...items.values()], 8, (item) => {
        const [year = '', , utilityType = ''] = String(item.sk).split('#');
        return copyToWholeYear(companyId, year, assetId, utilityType as UtilityType, item);
      });
    },
    new Map(years.map((mark) => [mark, [assetId]])),
  );
}

/**
 * How complete the company's site years are: `empty` when roll-ups were written before the store kept them
 * (or before it kept each month's emissions and cost), `by-utility` when its years predate the whole years,
 * `built` when both are whole.
 */
export async function siteYearsState(companyId: string): Promise<'empty' | 'by-utility' | 'built'> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: { pk: pkOf(companyId), sk: BUILT_SK } }),
  );
  if (out.Item?.monthFigures !== true) return 'empty';
  return out.Item.wholeYears === true ? 'built' : 'by-utility';
}

export async function markSiteYearsBuilt(companyId: string): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: {
        pk: pkOf(companyId),
        sk: BUILT_SK,
        builtAt: new Date().toISOString(),
        monthFigures: true,
        wholeYears: true,
      },
    }),
  );
}

/**
 * Copies every utility's year of the company onto its site's whole year, for years written before the
 * whole years were kept. Those items carry no revision yet (0): any delta since then wins over the copy.
 */
export async function fillWholeSiteYears(companyId: string): Promise<void> {
  await writingUnder(companyId, ['siteYears'], () => fillWholeSiteYearsUnmarked(companyId));
}

async function fillWholeSiteYearsUnmarked(companyId: string): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pkOf(companyId), ':from': '0000#', ':to': '9999#~' },
        ExclusiveStartKey: startKey,
      }),
    );
    await inPool(page.Items ?? [], 8, (raw) => {
      const [year = '', assetId = '', utilityType = ''] = String(raw.sk).split('#');
      return copyToWholeYear(companyId, year, assetId, utilityType as UtilityType, raw);
    });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

const READ_FIELDS = [
  'sk',
  'unit',
  'consumption',
  'cost',
  'emissionsKg',
  ...ROLLUP_PARTS,
  ...MONTH_ATTRIBUTES,
  ...MONTH_EMISSIONS_ATTRIBUTES,
  ...MONTH_COST_ATTRIBUTES,
];

/** Every site's figures by year and utility from `fromYear` to `toYear` inclusive. */
export async function listSiteYears(
  companyId: string,
  fromYear: number,
  toYear: number,
): Promise<SiteYearMonths[]> {
  const names = Object.fromEntries(READ_FIELDS.map((f, i) => [`#f${i}`, f]));
  return queryMapped(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pkOf(companyId), ':from': `${fromYear}#`, ':to': `${toYear}#~` },
      ProjectionExpression: Object.keys(names).join(', '),
      ExpressionAttributeNames: names,
    },
    siteYearOf,
  );
}

/** A utility's year as a row, from either item's figures (its parts when it has them). */
function rollupRow(
  assetId: string,
  year: string,
  utilityType: string,
  figures: Record<string, unknown>,
  monthsHeld: number[],
): SiteYearRollup {
  const row: SiteYearRollup = {
    assetId,
    year: Number(year),
    utilityType: utilityType as UtilityType,
    unit: String(figures.unit ?? ''),
    consumption: Number(figures.consumption) || 0,
    cost: Number(figures.cost) || 0,
    emissionsKg: Number(figures.emissionsKg) || 0,
    monthsHeld,
  };
  for (const part of ROLLUP_PARTS) {
    const value = figures[part];
    if (typeof value === 'number') row[part] = value;
  }
  return row;
}

function siteYearOf(raw: Record<string, unknown>): SiteYearMonths {
  const [year = '', assetId = '', utilityType = ''] = String(raw.sk).split('#');
  return {
    ...rollupRow(assetId, year, utilityType, raw, monthsOfMask(monthsHeldMask(raw))),
    months: MONTH_NUMBERS.map((_, i) => ({
      consumption: Number(raw[MONTH_ATTRIBUTES[i] ?? '']) || 0,
      cost: Number(raw[MONTH_COST_ATTRIBUTES[i] ?? '']) || 0,
      emissionsKg: Number(raw[MONTH_EMISSIONS_ATTRIBUTES[i] ?? '']) || 0,
    })),
  };
}

/** The months (1–12) whose bits are set in a whole year's mask. */
function monthsOfMask(mask: number): number[] {
  const months: number[] = [];
  for (let i = 0; i < 12; i++) if (mask & (1 << i)) months.push(i + 1);
  return months;
}

/** The whole years are read with their utilities' figures only, not the partition's key. */
const WHOLE_YEAR_NAMES = Object.fromEntries([['#sk', 'sk'], ...UTILITY_TYPES.map((u, i) => [`#u${i}`, u])]);

/**
 * Every site's figures by year and utility from `fromYear` to `toYear` inclusive, from the sites' whole
 * years: one item per site and year.
 */
export async function listWholeSiteYears(
  companyId: string,
  fromYear: number,
  toYear: number,
  opts: { consistent?: boolean } = {},
): Promise<SiteYearRollup[]> {
  const out: SiteYearRollup[] = [];
  await eachQueried(
    {
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': pkOf(companyId),
        ':from': `total#${fromYear}#`,
        ':to': `total#${toYear}#~`,
      },
      ExpressionAttributeNames: { ...WHOLE_YEAR_NAMES, '#pk': 'pk' },
      ProjectionExpression: Object.keys(WHOLE_YEAR_NAMES).join(', '),
      ...(opts.consistent ? { ConsistentRead: true } : {}),
    },
    (raw) => wholeYearRows(raw, out),
  );
  return out;
}

/**
 * Some sites' figures by utility in one year, from their whole years read strongly: the same rows
 * `listWholeSiteYears` gives for those sites, for patching a summary of every site.
 */
export async function getWholeSiteYears(
  companyId: string,
  year: number,
  assetIds: readonly string[],
): Promise<SiteYearRollup[]> {
  const out: SiteYearRollup[] = [];
  await eachBatchGot(
    [...new Set(assetIds)].map((assetId) => ({ pk: pkOf(companyId), sk: totalSkOf(String(year), assetId) })),
    (raw) => wholeYearRows(raw, out),
    4,
    true,
  );
  return out;
}

/** A whole year's rows, a utility at a time in one order, so its figures add up alike however it was read. */
function wholeYearRows(raw: Record<string, unknown>, out: SiteYearRollup[]): void {
  const [, year = '', assetId = ''] = String(raw.sk).split('#');
  for (const utilityType of UTILITY_TYPES) {
    const value = raw[utilityType];
    if (typeof value !== 'object' || value === null) continue;
    const figures = value as Record<string, unknown>;
    out.push(rollupRow(assetId, year, utilityType, figures, monthsOfMask(Number(figures.months) || 0)));
  }
}
