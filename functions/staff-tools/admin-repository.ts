/**
 * | pattern                                       | key condition                                                      | index |
 * | --------------------------------------------- | ------------------------------------------------------------------ | ----- |
 * | product-wide settings (one item)              | pk = G#product-settings, sk = product                              | table |
 * | every company                                 | pk = G#companies                                                   | table |
 * | a company's members, sites, meters (count)    | pk = C#{companyId}#users / #assets / #accounts, Select COUNT       | table |
 * | a company's bills or checks of a month        | pk = C#{companyId}#invoices / #invoice-validation, sk >= fromId    | table |
 * | a company's activity log, newest first        | pk = C#{companyId}#logs, sk BETWEEN ids of the days, descending    | table |
 * | a company's e-mails, newest first             | pk = C#{companyId}#emails (G#emails: reached no company), desc.    | table |
 * | one e-mail of a company                       | pk = C#{companyId}#emails (or G#emails), sk = id                   | table |
 * | a company's sites (projected fields)          | pk = C#{companyId}#assets                                          | table |
 * | one site of a company                         | pk = C#{companyId}#assets, sk = id                                 | table |
 * | a site's meters                               | gsi1pk = C#{companyId}#accounts#assetId#{assetId}                  | gsi1  |
 *
 * What the staff admin pages read across companies: always the companies list first, then each company's
 * own partitions, so nothing here scans the table.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductSettings } from '../../shared/schemas/staff-admin.ts';
import {
  DEFAULT_PRODUCT_SETTINGS,
  type StoredProductSettings,
} from '../../shared/schemas/staff-admin-values.ts';
import type { StoredAsset } from '../assets/index.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import {
  type CollectionRef,
  getItem,
  listItems,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { countQueried, eachQueried } from '../core/data/query-pages.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

const SETTINGS_KEY = { pk: keys.collection({}, 'product-settings'), sk: 'product' };

/** The product-wide settings, the defaults filling whatever was never set. */
export async function readProductSettings(): Promise<StoredProductSettings> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: SETTINGS_KEY }),
  );
  const item = out.Item ?? {};
  const { pk: _pk, sk: _sk, ...stored } = item;
  return { ...DEFAULT_PRODUCT_SETTINGS, ...(stored as Partial<StoredProductSettings>) };
}

export async function writeProductSettings(
  settings: ProductSettings,
  by: string,
): Promise<StoredProductSettings> {
  const item: StoredProductSettings = { ...settings, updatedAt: new Date().toISOString(), updatedBy: by };
  await documentClient().send(
    new PutCommand({ TableName: config().tableName, Item: { ...SETTINGS_KEY, ...item } }),
  );
  return item;
}

/** A company as the staff pages and the company switcher read it; one stored without a name has none. */
export interface CompanySummary {
  _id: string;
  name?: string;
  /** As stored, for the company switcher. */
  settings?: unknown;
}

/** Every live company. */
export async function listCompanies(): Promise<CompanySummary[]> {
  return (await queryAll(keys.collection({}, 'companies')))
    .filter((c) => c.deleted !== true)
    .map((c) => ({
      _id: c._id,
      name: typeof c.name === 'string' ? c.name : undefined,
      settings: c.settings,
    }));
}

export type CompanyCollection = 'users' | 'assets' | 'accounts' | 'invoices' | 'invoice-validation';

/**
 * How many live items of a company's collection there are, optionally only those made since `fromId`
 * and whose `status` is one of `statuses`: a COUNT query moves no item bodies.
 */
export async function countOf(
  companyId: string,
  collection: CompanyCollection,
  opts: { fromId?: string; statuses?: readonly string[] } = {},
): Promise<number> {
  const names: Record<string, string> = { '#deleted': 'deleted' };
  const values: Record<string, unknown> = {
    ':pk': keys.collection({ companyId }, collection),
    ':true': true,
  };
  let filter = '(attribute_not_exists(#deleted) OR #deleted <> :true)';
  if (opts.statuses && opts.statuses.length > 0) {
    names['#status'] = 'status';
    const placeholders = opts.statuses.map((s, i) => {
      values[`:s${i}`] = s;
      return `:s${i}`;
    });
    filter += ` AND #status IN (${placeholders.join(', ')})`;
  }
  if (opts.fromId) values[':from'] = opts.fromId;
  return countQueried({
    KeyConditionExpression: opts.fromId ? 'pk = :pk AND sk >= :from' : 'pk = :pk',
    FilterExpression: filter,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

export interface NewestQuery {
  /** Smallest and largest id to read (ids begin with their creation time). */
  fromId?: string;
  toId?: string;
  /** Attribute equalities the items must meet. */
  equal?: Record<string, string | readonly string[]>;
  limit: number;
}

/** Newest-first items of one partition meeting `equal`, reading pages until `limit` are found. */
async function newestOf(pk: string, q: NewestQuery): Promise<StoredItem[]> {
  const names: Record<string, string> = { '#deleted': 'deleted' };
  const values: Record<string, unknown> = { ':pk': pk, ':true': true };
  const filters = ['(attribute_not_exists(#deleted) OR #deleted <> :true)'];
  Object.entries(q.equal ?? {}).forEach(([field, want], i) => {
    names[`#f${i}`] = field;
    const list = typeof want === 'string' ? [want] : want;
    const holders = list.map((v, j) => {
      values[`:f${i}_${j}`] = v;
      return `:f${i}_${j}`;
    });
    filters.push(`#f${i} IN (${holders.join(', ')})`);
  });
  let condition = 'pk = :pk';
  if (q.fromId && q.toId) {
    condition += ' AND sk BETWEEN :from AND :to';
    values[':from'] = q.fromId;
    values[':to'] = q.toId;
  } else if (q.fromId) {
    condition += ' AND sk >= :from';
    values[':from'] = q.fromId;
  } else if (q.toId) {
    condition += ' AND sk <= :to';
    values[':to'] = q.toId;
  }
  const out: StoredItem[] = [];
  await eachQueried(
    {
      KeyConditionExpression: condition,
      FilterExpression: filters.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: Math.max(q.limit * 2, 25),
    },
    (raw) => {
      const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, ...item } = raw;
      out.push(item as StoredItem);
    },
    () => out.length >= q.limit,
  );
  return out.slice(0, q.limit);
}

/** A company's activity log, newest first. */
export const activityOfCompany = (companyId: string, q: NewestQuery) =>
  newestOf(keys.collection({ companyId }, 'logs'), q);

/** Capture checks of a company, newest first (the errors among them are what the dashboard lists). */
export const checksOfCompany = (companyId: string, q: NewestQuery) =>
  newestOf(keys.collection({ companyId }, 'invoice-validation'), q);

const emailsPk = (companyId: string | undefined) => keys.collection(companyId ? { companyId } : {}, 'emails');

/** A company's e-mails, newest first; no company: the mail that reached none. */
export const emailsOfCompany = async (
  companyId: string | undefined,
  q: NewestQuery,
): Promise<StoredEmail[]> => (await newestOf(emailsPk(companyId), q)).map(emailOf);

/** The mail that reached no company, listed as `ref` lists a company's. */
export const unmatchedEmailsRef = (ref: CollectionRef): CollectionRef => ({
  ...ref,
  pk: emailsPk(undefined),
});

/** A file that came with a mail: where the capture inbox stored it, and the document it became. */
export interface StoredEmailAttachment {
  _id?: string;
  key?: string;
  fileName?: string;
  captureId?: string;
}

/** A mail's attachments; none when it had none. */
export const emailAttachmentsOf = (email: StoredItem): StoredEmailAttachment[] =>
  Array.isArray(email.attachments) ? (email.attachments as StoredEmailAttachment[]) : [];

/**
 * A mail of the capture inbox's log as the intake stored it. No field is required of it: mail logged
 * before a field existed still reads.
 */
export type StoredEmail = Stored<{
  from?: string;
  envelopeFrom?: string;
  to?: string[];
  headerTo?: string[];
  subject?: string;
  messageId?: string;
  receivedAt?: string;
  status?: 'accepted' | 'refused';
  reason?: string;
  rawKey?: string;
  attachments?: StoredEmailAttachment[];
}>;

/** A mail as stored: the intake writes every field above, so nothing more is checked of it. */
const emailOf = (item: StoredItem): StoredEmail => storedRecord<StoredEmail>('e-mail', item, []);

export async function findEmail(companyId: string | undefined, id: string): Promise<StoredEmail | undefined> {
  const email = await getItem(emailsPk(companyId), id);
  return email && email.deleted !== true ? emailOf(email) : undefined;
}

const SITE_FIELDS = ['siteName', 'assetType', 'address', 'status', 'entityId'] as const;

/** A site with the fields a finder shows. */
export type FinderSite = StoredItem & {
  siteName?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
};

/** A company's live sites with the fields a finder shows. */
export async function sitesOfCompany(companyId: string): Promise<FinderSite[]> {
  return (await projectAll(keys.collection({ companyId }, 'assets'), SITE_FIELDS)).filter(
    (a) => a.deleted !== true,
  );
}

/** A live site, whole: the staff page shows it as stored, so no field is required of it. */
export async function findSite(companyId: string, id: string): Promise<StoredAsset | undefined> {
  const site = await getItem(keys.collection({ companyId }, 'assets'), id);
  return site && site.deleted !== true ? storedRecord<StoredAsset>('site', site, []) : undefined;
}

/** A meter as the staff site page lists it; fields a meter was stored without are absent. */
export interface SiteMeter {
  _id: string;
  name?: unknown;
  utilityType?: unknown;
  /** The meter number, else the MPAN or MPRN. */
  meterNumber?: unknown;
  supplierName?: unknown;
}

/** The meters (utility accounts) on a site, at most `limit`. */
export async function metersOfSite(companyId: string, assetId: string, limit: number): Promise<SiteMeter[]> {
  const { data } = await listItems(
    { pk: keys.collection({ companyId }, 'accounts'), indexes: ['assetId'], searchFields: [] },
    { filters: { assetId }, limit, skip: 0 },
  );
  return data.map((m) => ({
    _id: m._id,
    name: m.name,
    utilityType: m.utilityType,
    meterNumber: m.meterNumber ?? m.mpan ?? m.mprn,
    supplierName: m.supplierName,
  }));
}
