import { deleteRaw, getItem, getRaw, putRaw, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

const CAPTURE_ADDRESSES = keys.collection({}, 'capture-addresses');

export async function getCompany(companyId: string): Promise<StoredItem | undefined> {
  return getItem(keys.collection({}, 'companies'), companyId);
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
