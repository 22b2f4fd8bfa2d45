/**
 * | pattern                                     | key condition                                                 | index |
 * | ------------------------------------------- | ------------------------------------------------------------- | ----- |
 * | an account's months in a range              | pk = C#{companyId}#consumption#{accountId}, sk BETWEEN months | table |
 * | an asset's monthly roll-ups in a range      | pk = C#{companyId}#rollup#asset#{assetId}, sk BETWEEN month#  | table |
 * | a company's monthly roll-ups in a range     | pk = C#{companyId}#rollup#company, sk BETWEEN month#          | table |
 * | add to one month (atomic ADD, once/invoice) | pk as above, sk = month or month#utility                      | table |
 * | one account month (consistent read)         | pk = C#{companyId}#consumption#{accountId}, sk = month        | table |
 * | replace interval days of a month (CAS)      | pk = C#{companyId}#consumption#{accountId}, sk = month        | table |
 */
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { partAdds, type RollupParts } from './rollup-parts.ts';

/**
 * Consumption as time series: one item per account and month (not one per reading), and monthly roll-ups
 * per asset and utility and per company and utility, so an analytics range is a single Query of one
 * partition. Keys stay under `C#{companyId}` like every company item.
 */
export const consumptionKeys = {
  accountMonths: (companyId: string, accountId: string) => `C#${companyId}#consumption#${accountId}`,
  assetRollups: (companyId: string, assetId: string) => `C#${companyId}#rollup#asset#${assetId}`,
  companyRollups: (companyId: string) => `C#${companyId}#rollup#company`,
  rollupSk: (month: string, utilityType: UtilityType) => `${month}#${utilityType}`,
} as const;

export type ConsumptionSource = 'invoice' | 'import' | 'estimate' | 'interval';

export interface AccountMonth {
  /** YYYY-MM */
  month: string;
  consumption: number;
  unit: string;
  /** Net cost (before VAT), pounds */
  cost: number;
  currency: 'GBP';
  emissionsKg: number;
  /** The emission factor set that produced emissionsKg. */
  factorVersion: string;
  source: ConsumptionSource;
  invoiceId?: string;
  regoKwh?: number;
  vat?: number;
  ccl?: number;
  standingCharge?: number;
}

export interface StoredAccountMonth extends AccountMonth {
  companyId: string;
  accountId: string;
  updatedAt: string;
}

export interface RollupDelta extends RollupParts {
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
}

export interface Rollup extends RollupDelta {
  month: string;
  utilityType: UtilityType;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function assertMonth(month: string): void {
  if (!MONTH.test(month)) throw new Error(`A month must be YYYY-MM, not ${month}`);
}

const KEY_ATTRIBUTES = new Set(['pk', 'sk']);
const withoutKeys = <T>(raw: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(raw).filter(([k]) => !KEY_ATTRIBUTES.has(k))) as T;

function accountMonthItem(companyId: string, accountId: string, data: AccountMonth, now: string) {
  assertMonth(data.month);
  return {
    pk: consumptionKeys.accountMonths(companyId, accountId),
    sk: data.month,
    companyId,
    accountId,
    ...data,
    updatedAt: now,
  };
}

/** Writes (or replaces) one account's figures for one month. */
export async function putAccountMonth(
  companyId: string,
  accountId: string,
  data: AccountMonth,
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: accountMonthItem(companyId, accountId, data, new Date().toISOString()),
    }),
  );
}

const BATCH_SIZE = 25;
const MAX_BATCH_ATTEMPTS = 8;

/** BatchWrite in groups of 25, retrying what the table leaves unprocessed. */
async function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  const tableName = config().tableName;
  for (let i = 0; i < items.length; i += BATCH_SIZE) {
    let requests = items.slice(i, i + BATCH_SIZE).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error('The table kept refusing a batch of writes');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = (out.UnprocessedItems?.[tableName] ?? []).flatMap((r) =>
        r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : [],
      );
    }
  }
}

/** Writes many months of one account at once (imports, seeding). */
export async function putAccountMonths(
  companyId: string,
  accountId: string,
  months: readonly AccountMonth[],
): Promise<void> {
  const now = new Date().toISOString();
  await batchPut(months.map((m) => accountMonthItem(companyId, accountId, m, now)));
}

/** An account's months from `from` to `to` inclusive (both YYYY-MM), oldest first. */
export async function listAccountMonths(
  companyId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<StoredAccountMonth[]> {
  assertMonth(from);
  assertMonth(to);
  return queryRange(consumptionKeys.accountMonths(companyId, accountId), from, to);
}

async function queryRange<T>(pk: string, from: string, to: string): Promise<T[]> {
  const out: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const raw of page.Items ?? []) out.push(withoutKeys<T>(raw));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

async function addTo(pk: string, sk: string, fields: Record<string, string>, delta: RollupDelta) {
  const names: Record<string, string> = {
    '#consumption': 'consumption',
    '#cost': 'cost',
    '#emissions': 'emissionsKg',
    '#unit': 'unit',
    '#updatedAt': 'updatedAt',
  };
  const values: Record<string, unknown> = {
    ':consumption': delta.consumption,
    ':cost': delta.cost,
    ':emissions': delta.emissionsKg,
    ':unit': delta.unit,
    ':now': new Date().toISOString(),
  };
  const sets = ['#unit = :unit', '#updatedAt = :now'];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  const parts = partAdds(delta);
  Object.assign(names, parts.names);
  Object.assign(values, parts.values);
  const adds = ['#consumption :consumption', '#cost :cost', '#emissions :emissions', ...parts.adds];
  // ADD is atomic on the table, so concurrent writers never lose each other's figures.
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk, sk },
      UpdateExpression: `ADD ${adds.join(', ')} SET ${sets.join(', ')}`,
      // Figures in different units must never be summed into one roll-up.
      ConditionExpression: 'attribute_not_exists(#unit) OR #unit = :unit',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Adds an account month's figures (negative to take them away) to its asset's and its company's roll-up
 * for that month and utility. Sub-meters must not be added: their parent meter already counts them.
 */
export async function addToRollups(
  companyId: string,
  assetId: string,
  month: string,
  utilityType: UtilityType,
  delta: RollupDelta,
): Promise<void> {
  assertMonth(month);
  const sk = consumptionKeys.rollupSk(month, utilityType);
  const base = { companyId, month, utilityType };
  await addTo(consumptionKeys.assetRollups(companyId, assetId), sk, { ...base, assetId }, delta);
  await addTo(consumptionKeys.companyRollups(companyId), sk, base, delta);
}

/** Writes roll-ups whole, replacing what was there: for rebuilding them from account months. */
export async function putRollups(
  companyId: string,
  rows: readonly (Rollup & { assetId?: string })[],
): Promise<void> {
  const now = new Date().toISOString();
  await batchPut(
    rows.map((r) => {
      assertMonth(r.month);
      const pk = r.assetId
        ? consumptionKeys.assetRollups(companyId, r.assetId)
        : consumptionKeys.companyRollups(companyId);
      return { pk, sk: consumptionKeys.rollupSk(r.month, r.utilityType), companyId, ...r, updatedAt: now };
    }),
  );
}

/** An asset's monthly roll-ups from `from` to `to` inclusive (YYYY-MM), optionally of one utility. */
export async function listAssetRollups(
  companyId: string,
  assetId: string,
  from: string,
  to: string,
  utilityType?: UtilityType,
): Promise<Rollup[]> {
  return listRollups(consumptionKeys.assetRollups(companyId, assetId), from, to, utilityType);
}

export async function listCompanyRollups(
  companyId: string,
  from: string,
  to: string,
  utilityType?: UtilityType,
): Promise<Rollup[]> {
  return listRollups(consumptionKeys.companyRollups(companyId), from, to, utilityType);
}

async function listRollups(pk: string, from: string, to: string, utilityType?: UtilityType) {
  assertMonth(from);
  assertMonth(to);
  // '#~' sorts after every '#utility' suffix, so the last month is included whole.
  const rows = await queryRange<Rollup>(pk, `${from}#`, `${to}#~`);
  return utilityType ? rows.filter((r) => r.utilityType === utilityType) : rows;
}

/** What one confirmed invoice adds to one month of its account (its period is shared out by days). */
export interface InvoiceContribution extends RollupDelta {
  month: string;
  utilityType: UtilityType;
  factorVersion: string;
}

/**
 * Adds (sign 1) or takes back (sign -1) an invoice's share of a month in the account's months and, unless
 * the account is a sub-meter (no assetId given), in its asset's and company's roll-ups. Each item records
 * the ids of the invoices it holds, and the condition on that set makes every write happen once: a retried
 * confirmation or a repeated deletion changes nothing twice, without needing a transaction.
 */
export async function applyInvoiceContribution(
  companyId: string,
  accountId: string,
  assetId: string | undefined,
  invoiceId: string,
  c: InvoiceContribution,
  sign: 1 | -1,
): Promise<void> {
  assertMonth(c.month);
  const sk = consumptionKeys.rollupSk(c.month, c.utilityType);
  const targets: { pk: string; sk: string; fields: Record<string, string> }[] = [
    {
      pk: consumptionKeys.accountMonths(companyId, accountId),
      sk: c.month,
      fields: { companyId, accountId, month: c.month, currency: 'GBP', source: 'invoice' },
    },
  ];
  if (assetId) {
    const base = { companyId, month: c.month, utilityType: c.utilityType };
    targets.push({ pk: consumptionKeys.assetRollups(companyId, assetId), sk, fields: { ...base, assetId } });
    targets.push({ pk: consumptionKeys.companyRollups(companyId), sk, fields: base });
  }
  for (const t of targets) {
    const names: Record<string, string> = {
      '#consumption': 'consumption',
      '#cost': 'cost',
      '#emissions': 'emissionsKg',
      '#unit': 'unit',
      '#invoices': 'invoiceIds',
      '#updatedAt': 'updatedAt',
      '#factor': 'factorVersion',
    };
    const values: Record<string, unknown> = {
      ':consumption': sign * c.consumption,
      ':cost': sign * c.cost,
      ':emissions': sign * c.emissionsKg,
      ':unit': c.unit,
      ':ids': new Set([invoiceId]),
      ':id': invoiceId,
      ':now': new Date().toISOString(),
      ':factor': c.factorVersion,
    };
    const sets = ['#unit = :unit', '#updatedAt = :now', '#factor = :factor'];
    Object.entries(t.fields).forEach(([field, value], i) => {
      names[`#f${i}`] = field;
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    });
    const setClause = `SET ${sets.join(', ')}`;
    const parts = partAdds(c, sign);
    Object.assign(names, parts.names);
    Object.assign(values, parts.values);
    const adds = ['#consumption :consumption', '#cost :cost', '#emissions :emissions', ...parts.adds].join(
      ', ',
    );
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: { pk: t.pk, sk: t.sk },
          UpdateExpression:
            sign === 1
              ? `ADD ${adds}, #invoices :ids ${setClause}`
              : `ADD ${adds} DELETE #invoices :ids ${setClause}`,
          ConditionExpression:
            sign === 1
              ? '(attribute_not_exists(#invoices) OR NOT contains(#invoices, :id)) AND (attribute_not_exists(#unit) OR #unit = :unit)'
              : 'contains(#invoices, :id)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (err) {
      // Already applied (or already taken back): that is the point of the condition.
      if (!(err instanceof Error && err.name === 'ConditionalCheckFailedException')) throw err;
    }
  }
}

/** Days of interval data of one meter and month, as they count in the meter's month: in the account's unit. */
export interface IntervalMonthFigures {
  /** YYYY-MM */
  month: string;
  utilityType: UtilityType;
  unit: string;
  factorVersion: string;
  days: readonly { date: string; consumption: number; emissionsKg: number }[];
}

const MAX_CAS_ATTEMPTS = 8;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

const numberMap = (v: unknown): Record<string, number> =>
  v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === 'number'))
    : {};

/**
 * Puts days of interval data into their account's month, each replacing what that day held before, and
 * adds the difference to the asset's and company's roll-ups (unless the account is a sub-meter: no
 * assetId). The month keeps each day's figures (`intervalDays`, `intervalEmissions`, by day of the month)
 * under a version, and the swap is conditional on the version read, so a day written twice, or by two
 * writers at once, counts once: each writer adds exactly the change it made. The account month is
 * therefore always exact; should a crash fall between it and the roll-ups, rebuilding the asset's roll-ups
 * from its months (invalidate-cache) mends them. Answers the change made (zero when the days already held
 * these figures).
 */
export async function applyIntervalMonth(
  companyId: string,
  accountId: string,
  assetId: string | undefined,
  figures: IntervalMonthFigures,
): Promise<RollupDelta> {
  const { month } = figures;
  assertMonth(month);
  for (const d of figures.days)
    if (d.date.slice(0, 7) !== month) throw new Error(`${d.date} is not in ${month}`);
  const key = { pk: consumptionKeys.accountMonths(companyId, accountId), sk: month };
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: key,
        ConsistentRead: true,
        ProjectionExpression: '#days, #emissions, #version',
        ExpressionAttributeNames: {
          '#days': 'intervalDays',
          '#emissions': 'intervalEmissions',
          '#version': 'intervalVersion',
        },
      }),
    );
    const days = numberMap(current.Item?.intervalDays);
    const emissions = numberMap(current.Item?.intervalEmissions);
    const version = current.Item?.intervalVersion;
    let dc = 0;
    let de = 0;
    let changed = false;
    for (const d of figures.days) {
      const dd = d.date.slice(8, 10);
      if (days[dd] !== d.consumption || (emissions[dd] ?? 0) !== d.emissionsKg) changed = true;
      dc += d.consumption - (days[dd] ?? 0);
      de += d.emissionsKg - (emissions[dd] ?? 0);
      days[dd] = d.consumption;
      emissions[dd] = d.emissionsKg;
    }
    const delta: RollupDelta = {
      consumption: round3(dc),
      cost: 0,
      emissionsKg: round3(de),
      unit: figures.unit,
    };
    if (!changed) return delta;
    const values: Record<string, unknown> = {
      ':days': days,
      ':em': emissions,
      ':next': (typeof version === 'number' ? version : 0) + 1,
      ':dc': delta.consumption,
      ':de': delta.emissionsKg,
      ':zero': 0,
      ':unit': figures.unit,
      ':source': 'interval',
      ':factor': figures.factorVersion,
      ':now': new Date().toISOString(),
      ':companyId': companyId,
      ':accountId': accountId,
      ':month': month,
      ':currency': 'GBP',
    };
    if (typeof version === 'number') values[':version'] = version;
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: key,
          UpdateExpression:
            'ADD #consumption :dc, #emissions :de, #cost :zero SET #days = :days, #dayEmissions = :em, ' +
            '#version = :next, #unit = :unit, #source = if_not_exists(#source, :source), ' +
            '#factor = if_not_exists(#factor, :factor), #updatedAt = :now, #companyId = :companyId, ' +
            '#accountId = :accountId, #month = :month, #currency = if_not_exists(#currency, :currency)',
          // Figures in different units must never be summed into one month.
          ConditionExpression: `${typeof version === 'number' ? '#version = :version' : 'attribute_not_exists(#version)'} AND (attribute_not_exists(#unit) OR #unit = :unit)`,
          ExpressionAttributeNames: {
            '#days': 'intervalDays',
            '#dayEmissions': 'intervalEmissions',
            '#version': 'intervalVersion',
            '#consumption': 'consumption',
            '#cost': 'cost',
            '#emissions': 'emissionsKg',
            '#unit': 'unit',
            '#source': 'source',
            '#factor': 'factorVersion',
            '#updatedAt': 'updatedAt',
            '#companyId': 'companyId',
            '#accountId': 'accountId',
            '#month': 'month',
            '#currency': 'currency',
          },
          ExpressionAttributeValues: values,
        }),
      );
    } catch (err) {
      // Another writer changed the month since it was read: read again and apply the change from there.
      if (err instanceof Error && err.name === 'ConditionalCheckFailedException') continue;
      throw err;
    }
    if (assetId && (delta.consumption !== 0 || delta.emissionsKg !== 0)) {
      await addToRollups(companyId, assetId, month, figures.utilityType, delta);
    }
    return delta;
  }
  throw new Error(`The month ${month} of ${accountId} kept changing under the write`);
}
