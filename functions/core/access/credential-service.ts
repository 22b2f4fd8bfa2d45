import { type Caller, EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import { parseApiKey, parseIdSecret } from '../../../shared/access/credentials.ts';
import { isPermissionName, type PermissionName } from '../../../shared/access/permission-names.ts';
import { getCollectionItem } from '../data/item-repository.ts';
import { ApiError, tooManyRequests } from '../lib/errors.ts';
import { secretMatches } from '../lib/secrets.ts';
import { loadCaller } from './caller-service.ts';
import {
  type ApiAccount,
  getApiAccount,
  getApiKey,
  getFeedCredential,
  getKioskCredential,
  getMachineCredential,
  type StoredApiKey,
  takeCall,
} from './credential-repository.ts';

/**
 * Stored credentials are kept for as long as a caller is (5 s): a revoked key stops working on every
 * instance within that time, and a busy key costs one read per instance every few seconds, not per call.
 */
const CACHE_MS = 5000;
const cache = new Map<string, { value: unknown; until: number }>();

async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.value as T;
  const value = await load();
  cache.set(key, { value, until: Date.now() + CACHE_MS });
  return value;
}

/** After a key is issued, rotated or revoked here, this instance must not use the old record. */
export function forgetCredential(kind: 'apiKey' | 'kiosk' | 'machine' | 'feed', id: string): void {
  cache.delete(`${kind}:${id}`);
}

const refused = (code: string, message: string) => new ApiError(401, code, message);

const DAY_MS = 24 * 60 * 60 * 1000;

/** The period a moment falls in, counted from the account's anchor, periodDays at a time. */
export function periodOf(account: Pick<ApiAccount, 'periodAnchor' | 'plan'>, now = Date.now()) {
  const anchor = Date.parse(account.periodAnchor);
  const length = account.plan.periodDays * DAY_MS;
  const index = Math.max(0, Math.floor((now - anchor) / length));
  const start = anchor + index * length;
  return { index, start: new Date(start), resetsAt: new Date(start + length) };
}

export const apiRateScopes = {
  perSecond: (prefix: string) => `key#${prefix}`,
  perPeriod: (sub: string, companyId: string) => `account#${sub}#${companyId}`,
} as const;

/**
 * Counts a call against the key's plan: per second per key, per period per user and company (so a new
 * key does not reset the period). A call over either limit is 429 with the seconds to wait.
 */
async function chargeCall(key: StoredApiKey, account: ApiAccount, now = Date.now()): Promise<void> {
  const second = Math.floor(now / 1000);
  const perSecond = await takeCall(
    apiRateScopes.perSecond(key.prefix),
    `s#${second}`,
    account.plan.ratePerSecond,
    second + 120,
  );
  if (!perSecond) throw tooManyRequests(1);
  const period = periodOf(account, now);
  const inPeriod = await takeCall(
    apiRateScopes.perPeriod(key.sub, key.companyId),
    `p#${period.index}`,
    account.plan.callsPerPeriod,
    Math.floor(period.resetsAt.getTime() / 1000) + 86_400,
  );
  if (!inPeriod) throw tooManyRequests(Math.max(1, Math.ceil((period.resetsAt.getTime() - now) / 1000)));
}

/** An API key acts as the user who made it, in the company it was made in. */
export async function callerFromApiKey(raw: string): Promise<Caller> {
  const parsed = parseApiKey(raw);
  if (!parsed) throw refused('UNAUTHORISED', 'Invalid API key');
  const found = await cached(`apiKey:${parsed.prefix}`, async () => {
    const key = await getApiKey(parsed.prefix);
    const account = key ? await getApiAccount(key.sub, key.companyId) : undefined;
    return key && account ? { key, account } : undefined;
  });
  // The digest is compared even when nothing was found, so both take the same time.
  const matches = secretMatches(raw.trim(), found?.key.digest);
  if (!found || !matches || found.account.keyPrefix !== parsed.prefix) {
    throw refused('UNAUTHORISED', 'Invalid API key');
  }
  await chargeCall(found.key, found.account);
  const caller = await loadCaller(found.key.sub, [], { companyId: found.key.companyId });
  return { ...caller, via: 'apiKey' };
}

/**
 * `?token={feedId}.{secret}`: a calendar feed acts as the person it was made for, in its company, with
 * their access as it is now (a feed shows only what they may read today).
 */
export async function callerFromFeedToken(raw: string | undefined): Promise<Caller> {
  const at = raw ? raw.indexOf('.') : -1;
  const feedId = raw && at > 0 ? raw.slice(0, at) : '';
  const secret = raw && at > 0 ? raw.slice(at + 1) : '';
  if (!/^[0-9a-f]{24}$/.test(feedId) || secret.length === 0)
    throw refused('UNAUTHORISED', 'Invalid feed token');
  const stored = await cached(`feed:${feedId}`, () => getFeedCredential(feedId));
  if (!secretMatches(secret, stored?.digest) || !stored) throw refused('UNAUTHORISED', 'Invalid feed token');
  return loadCaller(stored.sub, [], { companyId: stored.companyId });
}

/** `X-Kiosk-Key: id:secret`; a kiosk reads only its own asset's display data. */
export async function callerFromKioskKey(raw: string | undefined, preview: boolean): Promise<Caller> {
  const parsed = parseIdSecret(raw);
  if (!parsed) throw refused('INVALID_AUTH', 'The kiosk key is missing or malformed');
  const stored = await cached(`kiosk:${parsed.id}`, async () => {
    const credential = await getKioskCredential(parsed.id);
    const kiosk = credential
      ? await getCollectionItem({ companyId: credential.companyId }, 'kiosks', parsed.id)
      : undefined;
    return credential && kiosk ? { credential, kiosk } : undefined;
  });
  const matches = secretMatches(parsed.secret, stored?.credential.digest);
  if (!stored || !matches || stored.kiosk.deleted === true) {
    throw refused('INVALID_AUTH', 'The kiosk key is not valid');
  }
  return {
    kind: 'kiosk',
    sub: `kiosk:${parsed.id}`,
    name: typeof stored.kiosk.name === 'string' ? stored.kiosk.name : undefined,
    companyId: stored.credential.companyId,
    isAdmin: false,
    permissions: [],
    grants: EMPTY_GRANTS,
    roles: [],
    kioskId: parsed.id,
    assetId: typeof stored.kiosk.assetId === 'string' ? stored.kiosk.assetId : undefined,
    preview,
  };
}

/** `X-Key: id:key` (or `Authorization: xkey id:key`): a machine reads with the permissions it was given. */
export async function callerFromMachineKey(raw: string | undefined): Promise<Caller> {
  const parsed = parseIdSecret(raw);
  if (!parsed) throw refused('AUTH_ERROR', 'The machine key is missing or malformed');
  const stored = await cached(`machine:${parsed.id}`, () => getMachineCredential(parsed.id));
  const matches = secretMatches(parsed.secret, stored?.digest);
  if (!stored || !matches) throw refused('AUTH_ERROR', 'The machine key is not valid');
  return {
    kind: 'machine',
    sub: `machine:${parsed.id}`,
    name: stored.name,
    companyId: stored.companyId,
    isAdmin: false,
    permissions: stored.permissions.filter((p): p is PermissionName => isPermissionName(p) && p !== 'admin'),
    grants: EMPTY_GRANTS,
    roles: [],
    machineId: parsed.id,
  };
}
