import type { Caller } from '../../shared/access/caller.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { FORBIDDEN_MESSAGE } from '../core/lib/errors.ts';
import { accountsResource } from './account-links.ts';
import { allAccounts, type StoredAccount } from './account-repository.ts';

/**
 * The meter a row of an import (contracts, readings) belongs to: named by its id or by its MPAN or MPRN.
 * A meter of another company, or one the caller may not see, is "not found" exactly as a number nobody
 * has, so a file can neither reach it nor learn that it exists.
 */

export const METER_ROW_MESSAGES = {
  notFound: 'No meter of this company has this id',
  numberNotFound: 'No meter of this company has this meter point number',
  several: 'More than one meter has this meter point number: give its accountId',
  missing: "Give the meter's accountId or its meter point number",
} as const;

export type MeterMatch = { account: StoredAccount } | { field: string; message: string };

const compact = (s: string) => s.replace(/\s+/g, '');

/** Answers each row's meter, with one read of the company's meters for the whole file. */
export async function meterMatcher(caller: Caller) {
  const accounts = (await allAccounts(caller.companyId)).filter((a) => a.deleted !== true);
  const byId = new Map(accounts.map((a) => [a._id, a]));
  const byNumber = new Map<string, StoredAccount[]>();
  for (const a of accounts) {
    if (typeof a.meterPointNumber !== 'string' || a.meterPointNumber === '') continue;
    const k = compact(a.meterPointNumber);
    const list = byNumber.get(k);
    if (list) list.push(a);
    else byNumber.set(k, [a]);
  }
  const resolver = new LineageResolver(caller.companyId, caller);
  const verdicts = new Map<string, 'write' | 'read' | 'none'>();
  const accessTo = async (a: StoredAccount) => {
    let v = verdicts.get(a._id);
    if (!v) {
      v = !(await mayAccessItem(accountsResource(), caller, a, 'read', resolver))
        ? 'none'
        : (await mayAccessItem(accountsResource(), caller, a, 'write', resolver))
          ? 'write'
          : 'read';
      verdicts.set(a._id, v);
    }
    return v;
  };
  return async (values: Readonly<Record<string, string>>): Promise<MeterMatch> => {
    let account: StoredAccount | undefined;
    let field = 'accountId';
    let unknown: string = METER_ROW_MESSAGES.notFound;
    if (values.accountId) account = byId.get(values.accountId.trim());
    else if (values.meterPointNumber) {
      field = 'meterPointNumber';
      unknown = METER_ROW_MESSAGES.numberNotFound;
      const n = compact(values.meterPointNumber);
      // A full MPAN ends with its 13-digit core, which is what meters are stored by.
      const found = byNumber.get(n) ?? byNumber.get(n.slice(-13)) ?? [];
      const visible: StoredAccount[] = [];
      for (const a of found) if ((await accessTo(a)) !== 'none') visible.push(a);
      if (visible.length > 1) return { field, message: METER_ROW_MESSAGES.several };
      account = visible[0];
    } else return { field: 'meterPointNumber', message: METER_ROW_MESSAGES.missing };
    const access = account ? await accessTo(account) : 'none';
    if (!account || access === 'none') return { field, message: unknown };
    if (access === 'read') return { field, message: FORBIDDEN_MESSAGE };
    return { account };
  };
}

/** A yes/no cell as spreadsheets write it; anything else is left for the schema to refuse. */
export function yesNo(text: string | undefined): boolean | string | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(t)) return true;
  if (['no', 'n', 'false', '0'].includes(t)) return false;
  return text;
}
