/**
 * | pattern                                | key condition                                                  | index |
 * | -------------------------------------- | -------------------------------------------------------------- | ----- |
 * | one API key by its public prefix       | pk = APIKEY#{prefix}, sk = credential                          | table |
 * | write / remove an API key              | pk = APIKEY#{prefix}, sk = credential                          | table |
 * | a person's API account in a company    | pk = U#{sub}, sk = api#{companyId}                             | table |
 * | count a call unless the bucket is full | pk = RATE#{scope}, sk = bucket, ADD if calls < limit           | table |
 * | calls made in a rate bucket            | pk = RATE#{scope}, sk = bucket                                 | table |
 * | one kiosk credential                   | pk = KIOSK#{kioskId}, sk = credential                          | table |
 * | one machine credential                 | pk = MACHINE#{machineId}, sk = credential                      | table |
 * | every machine of a company             | pk = C#{companyId}#machines                                    | table |
 * | write / remove a machine (both items)  | MACHINE#{machineId} and C#{companyId}#machines, sk = machineId | table |
 * | a pending authenticator secret         | pk = U#{sub}, sk = mfa-pending                                 | table |
 * | one calendar-feed credential           | pk = FEED#{feedId}, sk = credential                            | table |
 * | a person's calendar feed in a company  | pk = U#{sub}, sk = feed#{companyId}                            | table |
 * | write / remove a feed (both items)     | FEED#{feedId} and U#{sub} feed#{companyId}                     | table |
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { deleteRaw, getRaw, isConditionFailure, putRaw, queryAll } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { storedRecord } from '../data/stored-record.ts';

/**
 * Keys of credential items. A credential is found by the id its holder presents (an API key's public
 * prefix, a kiosk's or machine's id), so these live outside any company partition; each names its company.
 * Only digests of secrets are stored.
 */
export const credentialKeys = {
  apiKey: (prefix: string) => ({ pk: `APIKEY#${prefix}`, sk: 'credential' }),
  apiAccount: (sub: string, companyId: string) => ({ pk: `U#${sub}`, sk: `api#${companyId}` }),
  kiosk: (kioskId: string) => ({ pk: `KIOSK#${kioskId}`, sk: 'credential' }),
  machine: (machineId: string) => ({ pk: `MACHINE#${machineId}`, sk: 'credential' }),
  machinesOfCompany: (companyId: string) => keys.collection({ companyId }, 'machines'),
  pendingTotp: (sub: string) => ({ pk: `U#${sub}`, sk: 'mfa-pending' }),
  feed: (feedId: string) => ({ pk: `FEED#${feedId}`, sk: 'credential' }),
  feedOfUser: (sub: string, companyId: string) => ({ pk: `U#${sub}`, sk: `feed#${companyId}` }),
  rate: (scope: string) => `RATE#${scope}`,
} as const;

export interface ApiPlan {
  callsPerPeriod: number;
  periodDays: number;
  ratePerSecond: number;
}

export interface ApiAccount {
  sub: string;
  companyId: string;
  plan: ApiPlan;
  /** Periods are counted from this moment, periodDays at a time. */
  periodAnchor: string;
  keyPrefix?: string;
  keyCreatedAt?: string;
  createdAt: string;
}

export interface StoredApiKey {
  prefix: string;
  digest: string;
  sub: string;
  companyId: string;
  createdAt: string;
}

export async function getApiAccount(sub: string, companyId: string): Promise<ApiAccount | undefined> {
  const { pk, sk } = credentialKeys.apiAccount(sub, companyId);
  return (await getRaw(pk, sk)) as ApiAccount | undefined;
}

export async function putApiAccount(account: ApiAccount): Promise<void> {
  await putRaw({
    ...credentialKeys.apiAccount(account.sub, account.companyId),
    _id: account.sub,
    ...account,
  });
}

export async function getApiKey(prefix: string): Promise<StoredApiKey | undefined> {
  const { pk, sk } = credentialKeys.apiKey(prefix);
  return (await getRaw(pk, sk)) as StoredApiKey | undefined;
}

export async function putApiKey(key: StoredApiKey): Promise<void> {
  await putRaw({ ...credentialKeys.apiKey(key.prefix), _id: key.prefix, ...key });
}

export async function deleteApiKey(prefix: string): Promise<void> {
  const { pk, sk } = credentialKeys.apiKey(prefix);
  await deleteRaw(pk, sk);
}

export async function deleteApiAccount(sub: string, companyId: string): Promise<void> {
  const { pk, sk } = credentialKeys.apiAccount(sub, companyId);
  await deleteRaw(pk, sk);
}

/**
 * Counts one call in a bucket unless the bucket already holds `limit` calls: one atomic conditional ADD,
 * so concurrent callers on any number of instances cannot overshoot. False when the limit is reached.
 */
export async function takeCall(scope: string, bucket: string, limit: number, ttl: number): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: credentialKeys.rate(scope), sk: bucket },
        UpdateExpression: 'SET #ttl = if_not_exists(#ttl, :ttl) ADD #calls :one',
        ConditionExpression: 'attribute_not_exists(#calls) OR #calls < :limit',
        ExpressionAttributeNames: { '#calls': 'calls', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': ttl },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function callsIn(scope: string, bucket: string): Promise<number> {
  const item = await getRaw(credentialKeys.rate(scope), bucket);
  return typeof item?.calls === 'number' ? item.calls : 0;
}

export interface StoredKiosk {
  kioskId: string;
  companyId: string;
  digest: string;
  rotatedAt: string;
}

export async function getKioskCredential(kioskId: string): Promise<StoredKiosk | undefined> {
  const { pk, sk } = credentialKeys.kiosk(kioskId);
  return (await getRaw(pk, sk)) as StoredKiosk | undefined;
}

export async function putKioskCredential(kiosk: StoredKiosk): Promise<void> {
  await putRaw({ ...credentialKeys.kiosk(kiosk.kioskId), _id: kiosk.kioskId, ...kiosk });
}

export interface MachineRecord {
  machineId: string;
  companyId: string;
  name: string;
  permissions: string[];
  createdAt: string;
  createdBy: string;
}

export async function getMachineCredential(
  machineId: string,
): Promise<(MachineRecord & { digest: string }) | undefined> {
  const { pk, sk } = credentialKeys.machine(machineId);
  return (await getRaw(pk, sk)) as (MachineRecord & { digest: string }) | undefined;
}

/** The credential (with its digest) for look-up, and a listing entry (without) under the company. */
export async function putMachine(record: MachineRecord, digest: string): Promise<void> {
  await putRaw({ ...credentialKeys.machine(record.machineId), _id: record.machineId, ...record, digest });
  await putRaw({
    pk: credentialKeys.machinesOfCompany(record.companyId),
    sk: record.machineId,
    _id: record.machineId,
    ...record,
  });
}

/** A company's machine as listed: its record (no digest), under its id. */
export type StoredMachine = MachineRecord & { _id: string };

export async function listMachines(companyId: string): Promise<StoredMachine[]> {
  return (await queryAll(credentialKeys.machinesOfCompany(companyId))).map((item) =>
    storedRecord<MachineRecord>('machine', item, []),
  );
}

export async function deleteMachine(companyId: string, machineId: string): Promise<void> {
  const { pk, sk } = credentialKeys.machine(machineId);
  await deleteRaw(pk, sk);
  await deleteRaw(credentialKeys.machinesOfCompany(companyId), machineId);
}

export async function getPendingTotp(sub: string): Promise<string | undefined> {
  const { pk, sk } = credentialKeys.pendingTotp(sub);
  const item = await getRaw(pk, sk);
  if (typeof item?.secret !== 'string' || typeof item.expiresAt !== 'number') return undefined;
  return item.expiresAt > Date.now() ? item.secret : undefined;
}

export async function putPendingTotp(sub: string, secret: string, ttlSeconds: number): Promise<void> {
  const expiresAt = Date.now() + ttlSeconds * 1000;
  await putRaw({
    ...credentialKeys.pendingTotp(sub),
    _id: sub,
    secret,
    expiresAt,
    ttl: Math.floor(expiresAt / 1000),
  });
}

export async function deletePendingTotp(sub: string): Promise<void> {
  const { pk, sk } = credentialKeys.pendingTotp(sub);
  await deleteRaw(pk, sk);
}

/** A person's calendar feed in one company: the URL's secret proves it, its digest is kept. */
export interface StoredFeed {
  feedId: string;
  sub: string;
  companyId: string;
  digest: string;
  rotatedAt: string;
}

export async function getFeedCredential(feedId: string): Promise<StoredFeed | undefined> {
  const { pk, sk } = credentialKeys.feed(feedId);
  return (await getRaw(pk, sk)) as StoredFeed | undefined;
}

export async function getFeedOfUser(sub: string, companyId: string): Promise<StoredFeed | undefined> {
  const { pk, sk } = credentialKeys.feedOfUser(sub, companyId);
  return (await getRaw(pk, sk)) as StoredFeed | undefined;
}

/** Writes a person's feed, removing the one it replaces so the old URL stops working. */
export async function putFeedCredential(feed: StoredFeed, replaces?: string): Promise<void> {
  await putRaw({ ...credentialKeys.feed(feed.feedId), _id: feed.feedId, ...feed });
  await putRaw({ ...credentialKeys.feedOfUser(feed.sub, feed.companyId), _id: feed.feedId, ...feed });
  if (replaces && replaces !== feed.feedId) {
    const old = credentialKeys.feed(replaces);
    await deleteRaw(old.pk, old.sk);
  }
}
