/**
 * | pattern | key condition | index |
 * |---|---|---|
 * | every site's yearly figures over a span of years | `pk = C#{companyId}#rollup#site-years`, `sk BETWEEN {from}# AND {to}#~` | table |
 * | add to one site, year and utility (atomic ADD, once per invoice month) | `pk` as above, `sk = {year}#{assetId}#{utility}` | table |
 * | replace one site's years (rebuilding from its roll-ups) | `pk` as above, `sk = {year}#{assetId}#{utility}` | table |
 * | whether the company's site years are complete | `pk` as above, `sk = built` | table |
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { batchWrite } from '../core/data/batch-writes.ts';
import { queryMapped } from '../core/data/query-pages.ts';
import { partAdds, ROLLUP_PARTS, type RollupParts } from './rollup-parts.ts';

/**
 * Each site's figures by calendar year and utility, all sites of a company in one partition: what a
 * portfolio-wide table of sites by year (benchmarks, the calendar, target progress) reads in a few pages
 * instead of one query per site. Kept by the same deltas as the sites' monthly roll-ups, with each month's
 * consumption, emissions and cost on the item as well (`m01`…`m12`, `e01`…, `c01`…), so a year knows how
 * many of its months hold figures and any window of months is read from the years it touches.
 */
const pkOf = (companyId: string) => `C#${companyId}#rollup#site-years`;
const skOf = (year: string, assetId: string, utilityType: UtilityType) => `${year}#${assetId}#${utilityType}`;
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
  /** Each month's figures, January first. */
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

async function addToYear(
  companyId: string,
  assetId: string,
  year: string,
  utilityType: UtilityType,
  delta: SiteYearDelta,
  monthAdds: readonly (readonly [string, number])[],
  once?: { key: string; sign: 1 | -1 },
): Promise<void> {
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
  const adds = ['#consumption :consumption', '#cost :cost', '#emissions :emissions', ...parts.adds];
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
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: pkOf(companyId), sk: skOf(year, assetId, utilityType) },
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (err) {
    // An invoice's month already counted (or already taken back): the condition did its work.
    if (once && err instanceof Error && err.name === 'ConditionalCheckFailedException') return;
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
  await batchWrite([...items.values()].map((Item) => ({ PutRequest: { Item } })));
}

/**
 * Whether every site's years of the company are in the store, each month's figures included (roll-ups
 * written before the store, or a store built before it kept months' emissions and cost, are not).
 */
export async function siteYearsBuilt(companyId: string): Promise<boolean> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: { pk: pkOf(companyId), sk: BUILT_SK } }),
  );
  return out.Item?.monthFigures === true;
}

export async function markSiteYearsBuilt(companyId: string): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { pk: pkOf(companyId), sk: BUILT_SK, builtAt: new Date().toISOString(), monthFigures: true },
    }),
  );
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
): Promise<SiteYearRollup[]> {
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

function siteYearOf(raw: Record<string, unknown>): SiteYearRollup {
  const [year = '', assetId = '', utilityType = ''] = String(raw.sk).split('#');
  const row: SiteYearRollup = {
    assetId,
    year: Number(year),
    utilityType: utilityType as UtilityType,
    unit: String(raw.unit ?? ''),
    consumption: Number(raw.consumption) || 0,
    cost: Number(raw.cost) || 0,
    emissionsKg: Number(raw.emissionsKg) || 0,
    // Rounding leaves crumbs where a bill was added and taken back: a month under a thousandth is empty.
    monthsHeld: MONTH_ATTRIBUTES.flatMap((m, i) => (Math.abs(Number(raw[m]) || 0) >= 0.001 ? [i + 1] : [])),
    months: MONTH_NUMBERS.map((_, i) => ({
      consumption: Number(raw[MONTH_ATTRIBUTES[i] ?? '']) || 0,
      cost: Number(raw[MONTH_COST_ATTRIBUTES[i] ?? '']) || 0,
      emissionsKg: Number(raw[MONTH_EMISSIONS_ATTRIBUTES[i] ?? '']) || 0,
    })),
  };
  for (const part of ROLLUP_PARTS) {
    const value = raw[part];
    if (typeof value === 'number') row[part] = value;
  }
  return row;
}
