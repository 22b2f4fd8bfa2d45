/**
 * | pattern                               | key condition                                | index |
 * | ------------------------------------- | -------------------------------------------- | ----- |
 * | one company by id                     | pk = G#companies, sk = companyId             | table |
 * | capture address → company             | pk = G#capture-addresses, sk = address       | table |
 * | register / forget a capture address   | pk = G#capture-addresses, sk = address       | table |
 * | every company's id (data migrations)  | pk = G#companies, ids only                   | table |
 *
 * Companies themselves are global items (one partition), so staff can list them; everything a company
 * owns lives under its own `C#{companyId}` keys.
 */
import type * as z from 'zod';
import type { companySchema } from '../../shared/schemas/company.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { deleteRaw, getItem, getRaw, putRaw } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredCompany = Stored<z.input<typeof companySchema>>;

const CAPTURE_ADDRESSES = keys.collection({}, 'capture-addresses');

/** A company as stored, deleted or not. */
export async function getCompany(companyId: string): Promise<StoredCompany | undefined> {
  const item = await getItem(keys.collection({}, 'companies'), companyId);
  return item ? storedRecord<StoredCompany>('company', item, ['name']) : undefined;
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
