import type * as z from 'zod';
import type { ContractView } from '../../shared/schemas/account-contracts.ts';
import type { contractSchema } from '../../shared/schemas/contract.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, putItem, queryAll, type StoredItem } from '../core/data/item-repository.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';
import { notFound } from '../core/lib/errors.ts';
import { contractsRef } from './account-repository.ts';

/**
 * A supply contract as stored: written through the contract schema (by the API or an import), so its
 * fields are the schema's input, the defaults perhaps not filled in.
 */
export type StoredContract = Stored<
  z.input<typeof contractSchema> & {
    accountId?: string;
    /** The PDF attached by the server, kept by its storage key. */
    file?: { key?: string; name: string; size?: number; uploadedAt: string };
  }
>;

/** Every contract of an account, deleted ones included, typed. */
export async function contractsOf(companyId: string, accountId: string): Promise<StoredContract[]> {
  const items = await queryAll(contractsRef(companyId, accountId).pk);
  return items.map((item) => storedRecord<StoredContract>('contract', item, []));
}

export async function loadContract(
  companyId: string,
  accountId: string,
  contractId: string | undefined,
): Promise<StoredItem> {
  const contract = contractId ? await getItem(contractsRef(companyId, accountId).pk, contractId) : undefined;
  if (!contract || contract.deleted === true) throw notFound();
  return contract;
}

/**
 * Changes a contract as stored when written, retried if another write lands in between, so two edits of
 * different fields (or a toggle beside a patch) both land. `change` may run more than once.
 */
export async function changeContract(
  companyId: string,
  accountId: string,
  contractId: string,
  change: (current: StoredItem) => StoredItem | Promise<StoredItem>,
): Promise<StoredItem> {
  const changed = await changeItem(contractsRef(companyId, accountId), contractId, (current) => {
    if (current.deleted === true) throw notFound();
    return change(current);
  });
  if (!changed) throw notFound();
  return changed.after;
}

export async function saveContract(
  companyId: string,
  accountId: string,
  contract: StoredItem,
): Promise<void> {
  await putItem(contractsRef(companyId, accountId), contract);
}

/**
 * A contract as callers see it: its file by name, never by storage key. Every stored field is answered as
 * stored; the schema's defaults stand in for fields a contract written before they existed lacks, and the
 * account it is read under for a missing `accountId`.
 */
export function contractView(item: StoredItem, accountId: string): ContractView {
  const { file, ...rest } = storedRecord<StoredContract>('contract', item, []);
  return {
    ...rest,
    accountId: rest.accountId ?? accountId,
    status: rest.status ?? 'active',
    isRenewable: rest.isRenewable ?? false,
    rateTypes: (rest.rateTypes ?? []).map((r) => ({ ...r, kind: r.kind ?? 'unit' })),
    createdAt: rest.createdAt ?? '',
    updatedAt: rest.updatedAt ?? rest.createdAt ?? '',
    file: file
      ? { name: file.name, ...(file.size ? { size: file.size } : {}), uploadedAt: file.uploadedAt }
      : null,
  };
}

/** A period of supply, YYYY-MM-DD inclusive. */
export interface SupplyPeriod {
  startDate: string;
  endDate: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The periods a meter's supply was renewable with REGOs retired for it: its live, active contracts marked
 * renewable and REGO-backed. Electricity in them counts 0 kg market-based.
 */
export async function regoBackedPeriods(companyId: string, accountId: string): Promise<SupplyPeriod[]> {
  const contracts = await contractsOf(companyId, accountId);
  return contracts
    .filter(
      (c) => c.deleted !== true && c.status !== 'inactive' && c.isRenewable === true && c.regoBacked === true,
    )
    .flatMap((c) =>
      DATE.test(String(c.startDate)) && DATE.test(String(c.endDate))
        ? [{ startDate: String(c.startDate), endDate: String(c.endDate) }]
        : [],
    );
}
