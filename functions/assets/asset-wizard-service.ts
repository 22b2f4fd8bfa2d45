import type { Caller } from '../../shared/access/caller.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import {
  addressInputSchema,
  assetWizardSchema,
  type NormalisedWizardAsset,
  normaliseWizardValues,
} from '../../shared/schemas/asset-wizard.ts';
import { mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import {
  type CollectionRef,
  deleteRaw,
  getItem,
  listItems,
  putItem,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { ApiError } from '../core/lib/errors.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { formMessagesOf, parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef, declaredResource, resourceRef, stampNew } from '../core/resources/resource-refs.ts';
import { indexForSearch } from '../core/search-index/search-index-service.ts';
import { assetsRef, changeAsset, presentAsset } from './asset-records.ts';
import { geocodeSite } from './external-data-service.ts';

type CheckResult =
  | { ok: true; values: NormalisedWizardAsset }
  | { ok: false; formMessages: Record<string, string> };

const ID = /^[0-9a-f]{24}$/;

async function entityProblem(caller: Caller, entityId: unknown): Promise<string | undefined> {
  if (typeof entityId !== 'string' || !ID.test(entityId)) return undefined;
  const entity = await getItem(resourceRef(caller.companyId, 'entities').pk, entityId);
  if (!entity || entity.deleted === true) return ASSET_MESSAGES.unknownEntity;
  // The new site must sit where the caller may write, or they could create what they cannot see.
  const probe = { _id: '000000000000000000000000', entityId };
  if (!(await mayAccessItem(declaredResource('assets'), caller, probe, 'write')))
    return ASSET_MESSAGES.unknownEntity;
  return undefined;
}

async function nameTaken(caller: Caller, siteName: unknown): Promise<boolean> {
  if (typeof siteName !== 'string' || siteName.trim() === '') return false;
  const wanted = siteName.trim().toLowerCase();
  const found = await listItems(assetsRef(caller.companyId), {
    filters: {},
    text: wanted,
    limit: 1000,
    skip: 0,
  });
  return found.data.some((a) => typeof a.siteName === 'string' && a.siteName.trim().toLowerCase() === wanted);
}

/** Every rule of the wizard at once, so the person sees all that needs fixing in one go. */
export async function checkWizard(caller: Caller, body: unknown): Promise<CheckResult> {
  const parsed = assetWizardSchema.safeParse(body ?? {});
  const formMessages = parsed.success ? {} : formMessagesOf(parsed.error);
  const input = objectOf(body);
  const entity = await entityProblem(caller, input.entityId);
  if (entity && !formMessages.entityId) formMessages.entityId = entity;
  if (!formMessages.siteName && (await nameTaken(caller, input.siteName)))
    formMessages.siteName = ASSET_MESSAGES.duplicateSiteName;
  if (!parsed.success || Object.keys(formMessages).length > 0) return { ok: false, formMessages };
  return { ok: true, values: normaliseWizardValues(parsed.data) };
}

const checkFailed = (formMessages: Record<string, string>) =>
  new ApiError(400, 'VALIDATION_ERROR', ASSET_MESSAGES.checkProblem, { formMessages });

export interface Writer {
  put(ref: CollectionRef, item: StoredItem): Promise<void>;
  remove(pk: string, sk: string): Promise<void>;
}

const tableWriter: Writer = {
  put: (ref, item) => putItem(ref, item, { mustNotExist: true }),
  remove: deleteRaw,
};

/**
 * Creates the site with its first status and timeline entry. The emulated table has no transactions, so
 * a failed later write removes what was written before it: nothing is left half-created.
 */
export async function createWizardAsset(
  caller: Caller,
  values: NormalisedWizardAsset,
  writer: Writer = tableWriter,
): Promise<StoredItem> {
  const asset = stampNew(caller, { ...values, images: [] });
  const today = new Date().toISOString().slice(0, 10);
  const status = { ...stampNew(caller, { status: values.status, date: today, comment: 'Site added' }) };
  const event = stampNew(caller, { title: 'Site added', date: today });
  const writes: [CollectionRef, StoredItem][] = [
    [assetsRef(caller.companyId), asset],
    [childRef(caller.companyId, 'assets', asset._id, 'status-history'), { ...status, parentId: asset._id }],
    [childRef(caller.companyId, 'assets', asset._id, 'timeline-events'), { ...event, parentId: asset._id }],
  ];
  const done: [string, string][] = [];
  try {
    for (const [ref, item] of writes) {
      await writer.put(ref, item);
      done.push([ref.pk, item._id]);
    }
  } catch (err) {
    for (const [pk, sk] of done.reverse()) await writer.remove(pk, sk).catch(() => undefined);
    throw err;
  }
  return asset;
}

/** POST /assets/wizard-check: 200 with the values as they would be stored, or 400 with a message per field. */
const wizardCheck = operation({}, async (ctx): Promise<OpResult> => {
  const result = await checkWizard(ctx.caller, ctx.body);
  if (!result.ok) throw checkFailed(result.formMessages);
  return { body: { valid: true, values: result.values } };
});

/** POST /assets/wizard-submit: the same checks again (the data may have changed since), then the site. */
const wizardSubmit = operation({}, async (ctx): Promise<OpResult> => {
  const result = await checkWizard(ctx.caller, ctx.body);
  if (!result.ok) throw checkFailed(result.formMessages);
  const asset = await geocodeSite(ctx, await createWizardAsset(ctx.caller, result.values));
  await indexForSearch(ctx.caller.companyId, 'assets', asset);
  await writeActivity(ctx.caller, { type: 'create', model: 'assets', modelId: asset._id });
  return { status: 201, body: await presentAsset(asset) };
});

/** Data looked up for the old address means nothing at a new one. */
const ADDRESS_DERIVED = ['geocoordinates', 'recentCrimes', 'floodRisks', 'recentAirQuality'];

/** PATCH /assets/{id}/address: the whole address, checked like the wizard's. */
const updateAddress = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const address = parseOrThrow(addressInputSchema, ctx.body ?? {});
  let moved = false;
  const changed = await changeAsset(ctx.caller.companyId, ctx.params.id, (asset) => {
    const before = asset.address ?? {};
    moved = before.postCode !== address.postCode;
    const kept = Object.fromEntries(
      Object.entries(asset).filter(([k]) => !moved || !ADDRESS_DERIVED.includes(k)),
    );
    return { ...kept, _id: asset._id, address };
  });
  const next = moved ? await geocodeSite(ctx, changed) : changed;
  await indexForSearch(ctx.caller.companyId, 'assets', next);
  await writeActivity(ctx.caller, {
    type: 'update',
    model: 'assets',
    modelId: next._id,
    message: 'Address changed',
  });
  return { body: await presentAsset(next) };
});

export const ASSET_WIZARD_OPERATIONS: Operations = {
  'assets.wizardCheck': wizardCheck,
  'assets.wizardSubmit': wizardSubmit,
  'assets.updateAddress': updateAddress,
};
