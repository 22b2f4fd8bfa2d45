import type { Caller } from '../../shared/access/caller.ts';
import { parseDate, parseNumber } from '../../shared/imports/import-values.ts';
import { readingSchema } from '../../shared/schemas/reading.ts';
import type { ImportRow } from '../../shared/schemas/register-imports.ts';
import { queryAll, type StoredItem } from '../core/data/item-repository.ts';
import type {
  ImportBatchContext,
  PlannedItem,
  RollbackRules,
} from '../core/imports/register-import-service.ts';
import { RowProblems } from '../core/imports/register-import-service.ts';
import { resourceRef } from '../core/resources/resource-refs.ts';
import { unitOf } from './account-links.ts';
import { meterMatcher, yesNo } from './meter-rows.ts';
import { readingFieldErrors } from './reading-rules.ts';

/**
 * The readings import of the wizard: each row a meter reading (its meter by id or MPAN / MPRN), judged as
 * POST /readings/submit judges one: a date not in the future, and a register that only counts up against
 * the meter's stored readings and the file's earlier rows for the same meter.
 */

const estimateOf = (text: string | undefined) => {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === 'estimate' || t === 'e' || t === 'estimated') return true;
  if (t === 'actual' || t === 'a' || t === 'customer' || t === 'c') return false;
  return yesNo(text);
};

function readingInput(accountId: string, v: Readonly<Record<string, string>>) {
  return {
    accountId,
    date: v.date === undefined ? undefined : (parseDate(v.date) ?? v.date),
    value: v.value === undefined ? undefined : (parseNumber(v.value) ?? v.value),
    ...(v.unit ? { unit: v.unit } : {}),
    ...(v.isEstimate !== undefined ? { isEstimate: estimateOf(v.isEstimate) } : {}),
    ...(v.comment ? { comment: v.comment } : {}),
  };
}

export async function planReadingRows(
  caller: Caller,
  rows: readonly ImportRow[],
  batch: ImportBatchContext,
): Promise<{ problems: RowProblems; items: PlannedItem[] }> {
  const meterOf = await meterMatcher(caller);
  const problems = new RowProblems();
  const items: PlannedItem[] = [];
  // Every stored reading of the company in one partition query, by meter: not one query per meter.
  const byAccount = new Map<string, StoredItem[]>();
  for (const r of await queryAll(resourceRef(caller.companyId, 'readings').pk)) {
    if (r.deleted === true || typeof r.accountId !== 'string') continue;
    const list = byAccount.get(r.accountId);
    if (list) list.push(r);
    else byAccount.set(r.accountId, [r]);
  }
  const firstRowOf = new Map<string, number>();
  for (const r of rows) {
    const meter = await meterOf(r.values);
    if ('message' in meter) problems.add(r.row, meter.field, meter.message);
    const parsed = readingSchema.safeParse(
      readingInput('account' in meter ? meter.account._id : '0'.repeat(24), r.values),
    );
    if (!parsed.success) {
      problems.addZod(r.row, parsed.error);
      continue;
    }
    if (!('account' in meter)) continue;
    const { account } = meter;
    const others = byAccount.get(account._id) ?? [];
    const errors = readingFieldErrors(parsed.data, others);
    const earlier = firstRowOf.get(`${account._id}|${parsed.data.date}`);
    if (earlier !== undefined) errors.date = `The same meter and date as row ${earlier}`;
    for (const [field, message] of Object.entries(errors)) problems.add(r.row, field, message);
    if (Object.keys(errors).length > 0) continue;
    firstRowOf.set(`${account._id}|${parsed.data.date}`, r.row);
    const item = batch.stamp({ ...parsed.data, unit: parsed.data.unit ?? unitOf(account) });
    others.push(item);
    byAccount.set(account._id, others);
    items.push({ row: r.row, name: `${String(account.name ?? account._id)} ${parsed.data.date}`, item });
  }
  return { problems, items };
}

export const READING_ROLLBACK: RollbackRules = {
  nameOf: (r) => `${String(r.date ?? '')} ${String(r.value ?? '')}`.trim() || r._id,
  keepers: async () => new Map(),
};
