/**
 * | pattern                                           | key condition                                 | index |
 * | ------------------------------------------------- | --------------------------------------------- | ----- |
 * | the copy of the sites granted users' lists showed | pk = C#{companyId}#site-list-copy, sk = sites | table |
 * | keep a copy (replacing the one kept)              | pk = C#{companyId}#site-list-copy, sk = sites | table |
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

/** Sites as a process kept them, and the `siteList` change mark read (settled) before any of them was read. */
export interface SiteListCopy {
  changes: number;
  /** When the oldest of its sites was read (ms since the epoch). */
  born: number;
  sites: Map<string, StoredItem>;
}

const LAYOUT = 1;
/**
 * Packed, at most a few units to read (eventually consistently, half a unit per 4 KB) and a few dozen to
 * write: a process that holds more keeps the sites it read last.
 */
const MAX_BYTES = 24_000;
const MAX_SITES = 200;

const keyOf = (companyId: string) => ({ pk: keys.collection({ companyId }, 'site-list-copy'), sk: 'sites' });

const bytesOf = (v: unknown): Buffer | undefined =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;

/** Sets (string or number sets of the table) survive the round trip through JSON. */
const SET = '__set';
const toJson = (_key: string, value: unknown) => (value instanceof Set ? { [SET]: [...value] } : value);
const fromJson = (_key: string, value: unknown) =>
  value && typeof value === 'object' && Array.isArray((value as Record<string, unknown>)[SET])
    ? new Set((value as Record<string, unknown[]>)[SET])
    : value;

/**
 * The kept copy, read eventually consistently: whichever copy the read returns, its sites were read after
 * its mark, so the journal since that mark names every site written after them.
 */
export async function readSiteListCopy(companyId: string): Promise<SiteListCopy | undefined> {
  const item = (
    await documentClient().send(new GetCommand({ TableName: config().tableName, Key: keyOf(companyId) }))
  ).Item;
  const data = bytesOf(item?.data);
  if (!item || !data || item.layout !== LAYOUT || typeof item.changes !== 'number') return undefined;
  if (typeof item.born !== 'number') return undefined;
  const sites = JSON.parse(gunzipSync(data).toString('utf8'), fromJson) as unknown;
  if (!Array.isArray(sites)) return undefined;
  const out = new Map<string, StoredItem>();
  for (const site of sites as StoredItem[]) if (typeof site?._id === 'string') out.set(site._id, site);
  return { changes: item.changes, born: item.born, sites: out };
}

/**
 * Keeps a copy, replacing the one kept. Any part of a copy vouches for itself as the whole does, so one
 * too large keeps the sites last read (the map's last entries), halving until it fits.
 */
export async function keepSiteListCopy(companyId: string, copy: SiteListCopy): Promise<void> {
  const all = [...copy.sites.values()];
  const pack = (count: number) => gzipSync(JSON.stringify(all.slice(all.length - count), toJson));
  // No more than fit, packed, at a few hundred bytes a site: packing thousands would cost the call time.
  let count = Math.min(all.length, MAX_SITES);
  let data = pack(count);
  while (data.length > MAX_BYTES && count > 1) {
    count = Math.floor(count / 2);
    data = pack(count);
  }
  if (data.length > MAX_BYTES) return;
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { ...keyOf(companyId), layout: LAYOUT, changes: copy.changes, born: copy.born, data },
    }),
  );
}
