/**
 * | pattern                               | key condition                                | index |
 * | ------------------------------------- | -------------------------------------------- | ----- |
 * | one company by id                     | pk = G#companies, sk = companyId             | table |
 * | change a company (retried on a race)  | pk = G#companies, sk = companyId, revision   | table |
 * | capture address → company             | pk = G#capture-addresses, sk = address       | table |
 * | register / forget a capture address   | pk = G#capture-addresses, sk = address       | table |
 * | every company's id (data migrations)  | pk = G#companies, ids only                   | table |
 *
 * Companies themselves are global items (one partition), so staff can list them; everything a company
 * owns lives under its own `C#{companyId}` keys.
 */
import type * as z from 'zod';
import type { companySchema, companySettingsSchema } from '../../shared/schemas/company.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  declaredRef,
  deleteRaw,
  getItem,
  getRaw,
  putRaw,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

/** A company's settings as stored: the schema's fields, and the key of the uploaded logo beside them. */
export type StoredCompanySettings = z.input<typeof companySettingsSchema> & { logoKey?: string };

export type StoredCompany = Stored<
  Omit<z.input<typeof companySchema>, 'settings'> & { settings?: StoredCompanySettings }
>;

const toCompany = (item: StoredItem): StoredCompany => storedRecord<StoredCompany>('company', item, ['name']);

const CAPTURE_ADDRESSES = keys.collection({}, 'capture-addresses');

/** A company as stored, deleted or not. */
export async function getCompany(companyId: string): Promise<StoredCompany | undefined> {
  const item = await getItem(keys.collection({}, 'companies'), companyId);
  return item ? toCompany(item) : undefined;
}

/**
 * Changes a company as stored when written, retried if another write lands in between: two admins
 * changing different settings at once both land.
 */
export async function changeStoredCompany(
  companyId: string,
  change: (current: StoredCompany) => StoredCompany,
): Promise<StoredCompany | undefined> {
  const after = (await changeItem(declaredRef('companies', {}), companyId, (item) => change(toCompany(item))))
    ?.after;
  return after ? toCompany(after) : undefined;
}

/** The id of every live company: what a data migration walks through. */
export async function allCompanyIds(): Promise<string[]> {
  return (await projectAll(keys.collection({}, 'companies'), [])).map((c) => c._id);
}

/**
 * The invoice capture address → company lookup that mail intake needs; written whenever a company's
 * capture address is set, so intake never searches companies.
 */
export async function registerCaptureAddress(address: string, companyId: string): Promise<void> {
  await putRaw({ pk: CAPTURE_ADDRESSES, sk: address.trim().toLowerCase(), _id: address, companyId });
}

export async function companyIdForCaptureAddress(address: string): Promise<string | undefined> {
  const item = await getRaw(CAPTURE_ADDRESSES, address.trim().toLowerCase());
  return typeof item?.companyId === 'string' ? item.companyId : undefined;
}

/** Mail to an address a company no longer uses must not reach it. Only the owner's entry is removed. */
export async function unregisterCaptureAddress(address: string, companyId: string): Promise<void> {
  if ((await companyIdForCaptureAddress(address)) !== companyId) return;
  await deleteRaw(CAPTURE_ADDRESSES, address.trim().toLowerCase());
}
