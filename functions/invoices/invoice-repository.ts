/**
 * | pattern                                    | key condition                                                  | index |
 * | ------------------------------------------ | -------------------------------------------------------------- | ----- |
 * | one invoice / validation / capture by id   | pk = C#{companyId}#invoices (#invoice-validation, #invoice-capture), sk = id | table |
 * | every invoice of a company                 | pk = C#{companyId}#invoices                                    | table |
 * | invoices of an account, of a batch         | gsi pk = C#{companyId}#invoices#{field}#{value}                | gsi   |
 * | claim / advance a capture or invoice       | pk, sk as above, conditional on status                         | table |
 * | the capture holding a file's bytes         | pk = C#{companyId}#invoice-marker#file#{digest}, sk = capture  | table |
 * | invoices with a supplier invoice number    | pk = C#{companyId}#invoice-marker#number#{number}              | table |
 * | mail that reached a capture address        | pk = C#{companyId}#emails (G#emails unclaimed), sk = id        | table |
 * | claim a sender as seen (first mail from it)  | pk = C#{companyId}#email-senders, sk = address, if new          | table |
 * | tell members (notifications, one each)     | pk = C#{companyId}#notifications, sk = id                      | table |
 * | documents captured since a time (count)    | pk = C#{companyId}#invoice-capture, sk >= id of the time, COUNT | table |
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { ExtractedRate, ExtractedReading, MeterKeyed, MeterRef } from '../../shared/capture/model.ts';
import type { invoiceSchema } from '../../shared/schemas/invoice.ts';
import type { invoiceValidationSchema } from '../../shared/schemas/invoice-validation.ts';
import type { BillSummary, CheckCounts } from '../../shared/schemas/responses/invoices.ts';
import type { ValidationStatus } from '../../shared/validation/facts.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  isConditionFailure,
  newRevision,
  putItem,
  putItemIf,
  queryAll,
  queryEvery,
  REVISION_ATTRIBUTE,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { countQueried } from '../core/data/query-pages.ts';
import type { Stored } from '../core/data/stored-record.ts';
import { objectsOf } from '../core/lib/stored-values.ts';

/**
 * Invoice documents and what capture and validation make of them. A capture is one uploaded document;
 * each invoice found in it is an invoice item, and each invoice has one validation item with the same id.
 */

export const invoicesRef = (companyId: string): CollectionRef => declaredRef('invoices', { companyId });

export const validationsRef = (companyId: string): CollectionRef =>
  declaredRef('invoice-validation', { companyId });

/** Mail that reached a capture address: the company's, or the global one for mail nobody claims. */
export const emailsRef = (companyId: string | undefined): CollectionRef =>
  declaredRef('emails', companyId ? { companyId } : {});

/**
 * Records that the company has had mail from this address. True the first time, so exactly one intake of
 * a new sender's mail (even of two arriving together) tells the company about it.
 */
export async function claimNewSender(companyId: string, address: string): Promise<boolean> {
  const ref: CollectionRef = {
    pk: keys.collection({ companyId }, 'email-senders'),
    indexes: [],
    searchFields: [],
  };
  return putItemIf(
    ref,
    { _id: address, address, firstSeenAt: new Date().toISOString() },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );
}

/** New notifications for members of the company, one item each. */
export async function putNotifications(companyId: string, items: readonly StoredItem[]): Promise<void> {
  const ref = declaredRef('notifications', { companyId });
  for (const item of items) await putItem(ref, item);
}

export const capturesRef = (companyId: string): CollectionRef => ({
  pk: keys.collection({ companyId }, 'invoice-capture'),
  indexes: ['batchId'],
  searchFields: ['fileName'],
});

/** What capture found on an invoice beside its values: each meter's readings, and a bill's meters. */
export interface StoredCaptureResults {
  extractReadings?: (MeterKeyed & { readings: ExtractedReading[] })[];
  multiMeter?: { meters?: MeterRef[] };
}

/** The meter a bill was matched to, copied onto the bill for the queue to show. */
export interface StoredInvoiceAccount {
  _id?: string;
  name?: string;
  meterPointNumber?: string;
  type?: string;
  assetId?: string;
  siteName?: string;
}

export type StoredInvoice = Stored<
  z.input<typeof invoiceSchema> & {
    /** The capture (uploaded document) the invoice was found in. */
    captureId?: string;
    supplierId?: string;
    validationStatus?: string;
    validatedAt?: string;
    meterPointNumber?: string;
    invoiceNumber?: string;
    utilityType?: string;
    /** The rate lines capture read, as extraction gives them. */
    rates?: ExtractedRate[];
    results?: StoredCaptureResults;
    account?: StoredInvoiceAccount;
  }
>;
/** One check of a bill, as validation judged it (`CheckResult` of shared/validation, as stored). */
export interface StoredCheckResult {
  key: string;
  /** The rule's group (meter, dates, charges…): written with every result, absent on some older ones. */
  group?: string;
  name: string;
  status: string;
  reason: string;
}
export type StoredValidation = Stored<
  z.input<typeof invoiceValidationSchema> & {
    /** The bill it judges: the same id as the validation on every item the server writes. */
    invoiceId: string;
    status: ValidationStatus;
    completed: boolean;
    hold: boolean;
    tags: string[];
    /** The queue row's title: the bill's number and file name. */
    displayName: string;
    comments?: { text: string; by: string; at: string }[];
    accountId?: string;
    invoiceNumber?: string;
    invoiceCapture?: { _id: string; userSub?: string; fileName?: string; source?: string };
    bill?: BillSummary;
    reason?: string;
    results?: StoredCheckResult[];
    summary?: Partial<CheckCounts>;
  }
>;

/**
 * Every invoice field the schema declares is optional or defaulted, so there is nothing to check: an
 * invoice whose capture failed early is still an invoice.
 */
export const toInvoice = (item: StoredItem): StoredInvoice => item;

const VALIDATION_STATUSES: readonly ValidationStatus[] = ['pending', 'passed', 'warning', 'failed', 'error'];
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const checkResultOf = ({ group, ...r }: Record<string, unknown>): StoredCheckResult => {
  const key = text(r.key) ?? '';
  return {
    ...r,
    key,
    ...(text(group) ? { group: text(group) } : {}),
    name: text(r.name) ?? key,
    status: text(r.status) ?? 'skipped',
    reason: text(r.reason) ?? '',
  };
};

/**
 * A stored validation with the fields the queue and the bill page rely on: an item written by an older
 * release, an import or by hand that lacks one reads as the server writes it today (the schema's
 * defaults, its invoice's id, a title of the bill's number).
 */
export function toValidation(item: StoredItem): StoredValidation {
  const tags = Array.isArray(item.tags) ? item.tags.filter((t) => typeof t === 'string') : [];
  const results = item.results === undefined ? {} : { results: objectsOf(item.results).map(checkResultOf) };
  return {
    ...item,
    invoiceId: text(item.invoiceId) ?? item._id,
    status: VALIDATION_STATUSES.find((s) => s === item.status) ?? 'pending',
    completed: item.completed === true,
    hold: item.hold === true,
    tags,
    displayName: text(item.displayName) ?? text(item.invoiceNumber) ?? 'Invoice',
    ...results,
  };
}

export const getInvoice = async (companyId: string, id: string): Promise<StoredInvoice | undefined> => {
  const item = await getItem(invoicesRef(companyId).pk, id);
  return item && toInvoice(item);
};
export const getValidation = async (companyId: string, id: string): Promise<StoredValidation | undefined> => {
  const item = await getItem(validationsRef(companyId).pk, id);
  return item && toValidation(item);
};

/** Every invoice of a company, deleted ones included: callers filter. */
export const allInvoices = async (companyId: string): Promise<StoredInvoice[]> =>
  (await queryAll(invoicesRef(companyId).pk)).map(toInvoice);
/** How many documents a company sent to capture from `fromId` on (ids sort by creation time). */
export async function countCapturesSince(companyId: string, fromId: string): Promise<number> {
  return countQueried({
    KeyConditionExpression: 'pk = :pk AND sk >= :from',
    ExpressionAttributeValues: { ':pk': capturesRef(companyId).pk, ':from': fromId },
  });
}

/** One uploaded document and how far its capture went. */
export type CaptureFields = {
  batchId?: string;
  fileName?: string;
  /** Where the document's bytes are, in the uploads bucket. */
  key?: string;
  contentType?: string;
  size?: number;
  source?: string;
  status?: string;
  /** The invoices found in it; until it is read, one with the capture's own id. */
  invoiceIds?: string[];
  userSub?: string;
};
export type StoredCapture = Stored<CaptureFields>;

const optionalText = ['batchId', 'fileName', 'key', 'contentType', 'source', 'status', 'userSub'] as const;

/** Types a stored capture after checking the fields its readers use have the types they expect. */
export function toCapture(item: StoredItem): StoredCapture {
  for (const field of optionalText) {
    if (item[field] !== undefined && typeof item[field] !== 'string')
      throw new Error(`The stored capture ${item._id} has a ${field} that is not text`);
  }
  const ids = item.invoiceIds;
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string')))
    throw new Error(`The stored capture ${item._id} has invoice ids that are not ids`);
  return item as StoredCapture;
}

export const getCapture = async (companyId: string, id: string): Promise<StoredCapture | undefined> => {
  const item = await getItem(capturesRef(companyId).pk, id);
  return item && toCapture(item);
};

export const putInvoice = (companyId: string, item: StoredItem) => putItem(invoicesRef(companyId), item);
/** Writes a new invoice; one with its id already there is not overwritten. */
export const createInvoice = (companyId: string, item: StoredItem) =>
  putItem(invoicesRef(companyId), item, { mustNotExist: true });
export const putValidation = (companyId: string, item: StoredItem) =>
  putItem(validationsRef(companyId), item);
export const putCapture = (companyId: string, item: StoredItem) => putItem(capturesRef(companyId), item);

type Change = (current: StoredItem) => StoredItem | undefined | Promise<StoredItem | undefined>;

/** Changes an invoice as stored now, retried if another write lands in between (see changeItem). */
export const changeInvoice = (companyId: string, id: string, change: Change) =>
  changeItem(invoicesRef(companyId), id, change);

/** Changes a validation as stored now, retried if another write lands in between (see changeItem). */
export const changeValidation = (companyId: string, id: string, change: Change) =>
  changeItem(validationsRef(companyId), id, change);

/** Writes a new capture; false when one with its id is there already (the same document announced again). */
export const createCapture = (companyId: string, item: StoredItem): Promise<boolean> =>
  putItemIf(capturesRef(companyId), item, { ConditionExpression: 'attribute_not_exists(pk)' });

/** A capture that has sat in processing this long was abandoned by a crashed worker and may be taken again. */
export const STALE_CLAIM_MS = 15 * 60 * 1000;

/**
 * Takes a capture for processing, once: only from uploading or queued, or from a processing claim gone
 * stale. A duplicated S3 event or a second message therefore finds it taken and does nothing. A claim
 * made for the same SQS message (`delivery`, its id) is taken again at once: SQS hands a message out
 * again only once its worker stopped keeping it hidden, that is, died, so the capture it held would
 * otherwise wait out the stale time, and the message be taken off the queue, with nobody capturing it.
 */
export async function claimCapture(
  companyId: string,
  id: string,
  now: Date,
  delivery?: string,
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: capturesRef(companyId).pk, sk: id },
        UpdateExpression: `SET #status = :processing, claimedAt = :now, updatedAt = :nowIso, #rev = :rev${delivery ? ', claimedBy = :delivery' : ''} ADD attempts :one`,
        ConditionExpression: `attribute_exists(pk) AND (#status IN (:uploading, :queued) OR (#status = :processing AND (claimedAt < :stale${delivery ? ' OR claimedBy = :delivery' : ''})))`,
        ExpressionAttributeNames: { '#status': 'status', '#rev': REVISION_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':rev': newRevision(),
          ':processing': 'processing',
          ':uploading': 'uploading',
          ':queued': 'queued',
          ':now': now.getTime(),
          ':nowIso': now.toISOString(),
          ':stale': now.getTime() - STALE_CLAIM_MS,
          ':one': 1,
          ...(delivery ? { ':delivery': delivery } : {}),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * The order an invoice moves through while its document is captured. A status is only ever written over
 * one earlier in this order, so a late or repeated event cannot move an invoice back; captured, manual,
 * error and completed are past all of them.
 */
const CAPTURE_PROGRESS = ['uploading', 'queued', 'pending', 'processing'] as const;
export type CaptureProgress = (typeof CAPTURE_PROGRESS)[number];

/** The statuses a record may leave for `to`: those before it (and `to` itself, so a retry is a no-op). */
const before = (to: CaptureProgress) => CAPTURE_PROGRESS.slice(0, CAPTURE_PROGRESS.indexOf(to) + 1);

async function advance(pk: string, id: string, to: CaptureProgress, now: Date): Promise<boolean> {
  const from = before(to);
  const values: Record<string, string> = { ':to': to, ':now': now.toISOString(), ':rev': newRevision() };
  from.forEach((s, i) => {
    values[`:f${i}`] = s;
  });
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk, sk: id },
        UpdateExpression: 'SET #status = :to, updatedAt = :now, #rev = :rev',
        ConditionExpression: `attribute_exists(pk) AND #status <> :to AND #status IN (${from
          .map((_, i) => `:f${i}`)
          .join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status', '#rev': REVISION_ATTRIBUTE },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Moves an invoice forward to a capture status (queued, processing) only from an earlier one. Answers
 * whether it moved: false when it was there already or past it (captured, completed, ...), or is gone.
 */
export const advanceInvoiceStatus = (companyId: string, id: string, to: CaptureProgress, now = new Date()) =>
  advance(invoicesRef(companyId).pk, id, to, now);

/** The capture record's counterpart of advanceInvoiceStatus, for the object having arrived (queued). */
export const advanceCaptureStatus = (companyId: string, id: string, to: CaptureProgress, now = new Date()) =>
  advance(capturesRef(companyId).pk, id, to, now);

/**
 * Puts a pending or processing invoice back to queued when its capture gave its claim back (the message is retried
 * or kept in the dead-letter queue), so the browser does not show it as being worked on meanwhile.
 */
export async function requeueInvoice(companyId: string, id: string, now = new Date()): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: invoicesRef(companyId).pk, sk: id },
        UpdateExpression: 'SET #status = :queued, updatedAt = :now, #rev = :rev',
        ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :processing)',
        ExpressionAttributeNames: { '#status': 'status', '#rev': REVISION_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':rev': newRevision(),
          ':queued': 'queued',
          ':pending': 'pending',
          ':processing': 'processing',
          ':now': now.toISOString(),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Not deleted: a worker writes its older copy over a record only while this holds. */
const NOT_DELETED = '(attribute_not_exists(#deleted) OR #deleted <> :true)';

/**
 * Writes what capture made of an invoice unless a person has confirmed it, or it was deleted, meanwhile:
 * a capture run again must not undo a completed invoice, whose values are already in the account's data,
 * nor bring back a deleted one. Answers whether it was written.
 */
export const putCapturedInvoice = (companyId: string, item: StoredItem): Promise<boolean> =>
  putItemIf(invoicesRef(companyId), item, {
    ConditionExpression: `attribute_not_exists(pk) OR (#status <> :completed AND (attribute_not_exists(completed) OR completed <> :true) AND ${NOT_DELETED})`,
    ExpressionAttributeNames: { '#status': 'status', '#deleted': 'deleted' },
    ExpressionAttributeValues: { ':completed': 'completed', ':true': true },
  });

/**
 * Writes a capture's fresh validation unless a person has completed it, or it was deleted: the
 * validation is in place before its invoice shows as captured, so nobody who sees the invoice finds it
 * missing. Answers whether it was written.
 */
export const putValidationUnlessCompleted = (companyId: string, item: StoredItem): Promise<boolean> =>
  putItemIf(validationsRef(companyId), item, {
    ConditionExpression: `attribute_not_exists(pk) OR ((attribute_not_exists(completed) OR completed <> :true) AND ${NOT_DELETED})`,
    ExpressionAttributeNames: { '#deleted': 'deleted' },
    ExpressionAttributeValues: { ':true': true },
  });

/** Writes a validation not there yet; false when one is there already (then it is changed, not written over). */
export const createValidation = (companyId: string, item: StoredItem): Promise<boolean> =>
  putItemIf(validationsRef(companyId), item, { ConditionExpression: 'attribute_not_exists(pk)' });

/** Changes a capture record as stored now, retried if another write lands in between (see changeItem). */
export const changeCapture = (companyId: string, id: string, change: Change) =>
  changeItem(capturesRef(companyId), id, change);

const markerKey = (companyId: string, kind: string, value: string) =>
  `${keys.collection({ companyId }, 'invoice-marker')}#${kind}#${value}`;

/**
 * Records that a document with these bytes belongs to a capture. Answers the capture that already held
 * them, if another did: the same file uploaded again is recognised rather than captured twice.
 */
export async function claimFileDigest(
  companyId: string,
  digest: string,
  captureId: string,
): Promise<string | undefined> {
  const pk = markerKey(companyId, 'file', digest);
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { pk, sk: 'capture', captureId },
        ConditionExpression: 'attribute_not_exists(pk) OR captureId = :id',
        ExpressionAttributeValues: { ':id': captureId },
      }),
    );
    return undefined;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const existing = await documentClient().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    );
    const other = existing.Items?.[0]?.captureId;
    return typeof other === 'string' ? other : undefined;
  }
}

/** Forgets a file digest, so that a deleted capture's document may be uploaded again. */
/** The capture that holds a file with these bytes, if any: a look that claims nothing. */
export async function fileDigestHolder(companyId: string, digest: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': markerKey(companyId, 'file', digest) },
    }),
  );
  const holder = out.Items?.[0]?.captureId;
  return typeof holder === 'string' ? holder : undefined;
}

export async function releaseFileDigest(companyId: string, digest: string, captureId: string) {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: config().tableName,
        Key: { pk: markerKey(companyId, 'file', digest), sk: 'capture' },
        ConditionExpression: 'captureId = :id',
        ExpressionAttributeValues: { ':id': captureId },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** Invoice numbers are compared without spaces, punctuation or case, as suppliers print them variously. */
export const normaliseInvoiceNumber = (n: string) => n.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/** Indexes an invoice under its supplier invoice number, for the duplicate check. */
export async function putInvoiceNumber(companyId: string, invoiceNumber: string, invoiceId: string) {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { pk: markerKey(companyId, 'number', normaliseInvoiceNumber(invoiceNumber)), sk: invoiceId },
    }),
  );
}

export async function removeInvoiceNumber(companyId: string, invoiceNumber: string, invoiceId: string) {
  await documentClient().send(
    new DeleteCommand({
      TableName: config().tableName,
      Key: { pk: markerKey(companyId, 'number', normaliseInvoiceNumber(invoiceNumber)), sk: invoiceId },
    }),
  );
}

/** Ids of the invoices of a company that carry this supplier invoice number. */
export async function invoicesWithNumber(companyId: string, invoiceNumber: string): Promise<string[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: {
        ':pk': markerKey(companyId, 'number', normaliseInvoiceNumber(invoiceNumber)),
      },
    }),
  );
  return (out.Items ?? []).map((i) => String(i.sk));
}

/** Every item of an index partition of a collection (all invoices of an account, of a batch). */
export async function queryIndexed(ref: CollectionRef, field: string, value: string): Promise<StoredItem[]> {
  const i = ref.indexes.indexOf(field);
  if (i < 0) throw new Error(`${field} is not indexed`);
  const index = `gsi${i + 1}`;
  return queryEvery({
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': `${index}pk` },
    ExpressionAttributeValues: { ':pk': keys.indexed(ref.pk, field, value) },
  });
}

// A validation item is written by the validation calls, which add its bill's name and checks.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    'invoice-validation': StoredValidation;
  }
}
