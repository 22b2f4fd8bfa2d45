import type { Caller } from '../../shared/access/caller.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { READING_MESSAGES } from '../../shared/schemas/account-messages.ts';
import { plainListQuery } from '../../shared/schemas/list-queries.ts';
import type { PresignedUpload } from '../../shared/schemas/responses/accounts.ts';
import { findResource } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, listItems, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { forbidden, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { applyPatch } from '../core/lib/item-patch.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { collectionOf, genericOperation } from '../core/resources/resource-service.ts';
import { accountsResource, getAccount, throwIfAny, unitOf } from './account-links.ts';
import { readingFieldErrors, readingPhotoPrefix, readingView, verifyReadingPhoto } from './reading-rules.ts';

/** Meter readings of an account (02 §7): submitted with an optional photo, edited, listed, removed. */

function readingsResource() {
  const r = findResource('readings');
  if (!r) throw new Error('The readings resource is not declared');
  return r;
}

const generic = genericOperation;

/**
 * The reading's write schemas are of zod's full build: they load with the first write, so that a cold
 * start that only reads does not read that build.
 */
const readingWrites = () => import('../../shared/schemas/account-readings.ts');

/** An account the caller may see (else 404) and, for writes, change (else 403). */
async function accountFor(caller: Caller, accountId: string, access: 'read' | 'write'): Promise<StoredItem> {
  const account = await getAccount(caller.companyId, accountId);
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!account || !(await mayAccessItem(accountsResource(), caller, account, 'read', resolver)))
    throw notFound();
  if (access === 'write' && !(await mayAccessItem(accountsResource(), caller, account, 'write', resolver)))
    throw forbidden();
  return account;
}

async function loadReading(caller: Caller, id: string | undefined, access: 'read' | 'write') {
  const resource = readingsResource();
  const reading = id ? await getItem(collectionOf(resource, caller).pk, id) : undefined;
  if (!reading || reading.deleted === true) throw notFound();
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!(await mayAccessItem(resource, caller, reading, 'read', resolver))) throw notFound();
  if (access === 'write' && !(await mayAccessItem(resource, caller, reading, 'write', resolver)))
    throw forbidden();
  return reading;
}

async function otherReadings(caller: Caller, accountId: string, selfId?: string) {
  const { data } = await listItems(collectionOf(readingsResource(), caller), {
    filters: { accountId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return data.filter((r) => r._id !== selfId);
}

// The generic reads answer each reading through its view (registered by the accounts function).
const list = operation(
  { query: plainListQuery },
  async (ctx): Promise<OpResult> => generic('generic.list')({ ...ctx, query: ctx.query.text }),
);

const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => generic('generic.get')(ctx));

/** POST /readings/photo: a presigned PUT for a reading's photo, checked when the reading is submitted. */
const photoUpload = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow((await readingWrites()).readingPhotoSchema, ctx.body);
  const account = await accountFor(ctx.caller, input.accountId, 'write');
  const ext = input.contentType === 'image/png' ? 'png' : 'jpg';
  const key = `${readingPhotoPrefix(ctx.caller.companyId, account._id)}${newId()}.${ext}`;
  return {
    body: {
      uploadUrl: await presignPut(bucketName('documents'), key, input.contentType, { size: input.size }),
      method: 'PUT',
      headers: { 'Content-Type': input.contentType },
      key,
    } satisfies PresignedUpload,
  };
});

const submit = operation({}, async (ctx): Promise<OpResult> => {
  const { photoKey, ...data } = parseOrThrow((await readingWrites()).readingSubmitSchema, ctx.body);
  const account = await accountFor(ctx.caller, data.accountId, 'write');
  throwIfAny(readingFieldErrors(data, await otherReadings(ctx.caller, account._id)));
  const companyId = ctx.caller.companyId;
  const photo = photoKey ? await verifyReadingPhoto(companyId, account._id, photoKey) : undefined;
  const now = new Date().toISOString();
  const reading: StoredItem = {
    ...data,
    unit: data.unit ?? unitOf(account),
    ...(photo ? { photo } : {}),
    _id: newId(),
    companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putItem(collectionOf(readingsResource(), ctx.caller), reading, { mustNotExist: true });
  await writeActivity(ctx.caller, { type: 'create', model: 'readings', modelId: reading._id });
  return { status: 201, body: readingView(reading) };
});

/** PUT /readings/{id}/edit-submission: changes a submitted reading, checked as a new one would be. */
const editSubmission = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const existing = await loadReading(ctx.caller, ctx.params.id, 'write');
  const { readingEditObject } = await readingWrites();
  const body = ctx.body ?? {};
  const accountId = String(existing.accountId);
  const { photoKey } = applyPatch(existing, readingEditObject(), body);
  const photo =
    typeof photoKey === 'string'
      ? await verifyReadingPhoto(ctx.caller.companyId, accountId, photoKey)
      : undefined;
  const others = await otherReadings(ctx.caller, accountId, existing._id);
  // Applied to the reading as stored when written, so a concurrent change of another field stays.
  const changed = await changeItem(collectionOf(readingsResource(), ctx.caller), existing._id, (current) => {
    if (current.deleted === true) throw notFound();
    const { photoKey: _key, ...next } = applyPatch(current, readingEditObject(), body);
    next.updatedAt = new Date().toISOString();
    throwIfAny(readingFieldErrors({ date: String(next.date), value: Number(next.value) }, others));
    if (typeof body === 'object' && 'photoKey' in body && body.photoKey === null) delete next.photo;
    else if (photo !== undefined) next.photo = photo;
    return next;
  });
  if (!changed) throw notFound();
  const next = changed.after;
  await writeActivity(ctx.caller, { type: 'update', model: 'readings', modelId: existing._id });
  return { body: readingView(next) };
});

/** GET /readings/{id}/photo: `{ url }`, a presigned GET of the reading's photo. */
const photo = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const reading = await loadReading(ctx.caller, ctx.params.id, 'read');
  const key = objectOf(reading.photo).key;
  if (
    typeof key !== 'string' ||
    !key.startsWith(readingPhotoPrefix(ctx.caller.companyId, String(reading.accountId)))
  )
    throw notFound(READING_MESSAGES.noPhoto);
  return { body: { url: await presignGet(bucketName('documents'), key, 900) } };
});

export const READING_OPERATIONS: Operations = {
  'readings.list': list,
  'readings.get': get,
  'readings.submit': submit,
  'readings.photoUpload': photoUpload,
  'readings.editSubmission': editSubmission,
  'readings.photo': photo,
};
