import * as z from 'zod';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { ASSET_STATUSES } from '../../shared/schemas/asset-wizard.ts';
import { statusHistorySchema } from '../../shared/schemas/status-history.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, listItems, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef, stampNew } from '../core/resources/resource-refs.ts';
import { changeAsset, loadAsset } from './asset-records.ts';

/** A site's status entries name one of the site statuses, so the latest can become the site's own. */
const entrySchema = statusHistorySchema.extend({
  status: z.enum(ASSET_STATUSES, { error: `Must be one of ${ASSET_STATUSES.join(', ')}` }),
});

const historyRef = (companyId: string, assetId: string) =>
  childRef(companyId, 'assets', assetId, 'status-history');

/** The entry in force: the latest date, and of one day the last entered. */
export function currentEntry(entries: readonly StoredItem[]): StoredItem | undefined {
  const live = entries.filter((e) => e.deleted !== true);
  return live.sort((a, b) => String(b.date).localeCompare(String(a.date)) || b._id.localeCompare(a._id))[0];
}

/** Keeps the site's status equal to its history's entry in force. */
async function followHistory(companyId: string, assetId: string): Promise<void> {
  const entries = await listItems(historyRef(companyId, assetId), {
    filters: {},
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  const current = currentEntry(entries.data);
  const status = ASSET_STATUSES.find((s) => s === current?.status);
  if (!status) return;
  await changeAsset(companyId, assetId, (asset) =>
    asset.status === status ? undefined : { ...asset, status },
  );
}

const given = (body: unknown) => (body && typeof body === 'object' ? Object.keys(body) : []);

const create = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const data = parseOrThrow(entrySchema, ctx.body ?? {});
  const item = { ...stampNew(ctx.caller, data), parentId: asset._id };
  await putItem(historyRef(ctx.caller.companyId, asset._id), item, { mustNotExist: true });
  await followHistory(ctx.caller.companyId, asset._id);
  await writeActivity(ctx.caller, {
    type: 'update',
    model: 'assets',
    modelId: asset._id,
    message: `Status ${data.status} from ${data.date}`,
  });
  return { status: 201, body: item };
});

async function loadEntry(ctx: WithParams<'id' | 'subId'>) {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const ref = historyRef(ctx.caller.companyId, asset._id);
  const entry = await getItem(ref.pk, ctx.params.subId);
  if (!entry || entry.deleted === true) throw notFound();
  return { asset, ref, entry };
}

const update = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const { asset, ref, entry } = await loadEntry(ctx);
  const patch = parseOrThrow(entrySchema.partial(), ctx.body ?? {});
  const keys = given(ctx.body);
  const changes = Object.fromEntries(Object.entries(patch).filter(([k]) => keys.includes(k)));
  // Applied to the entry as stored when written, so a concurrent change of another field stays.
  const changed = await changeItem(ref, entry._id, (current) => {
    if (current.deleted === true) throw notFound();
    return { ...current, ...changes, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  await followHistory(ctx.caller.companyId, asset._id);
  return { body: changed.after };
});

const remove = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const { asset, ref, entry } = await loadEntry(ctx);
  const changed = await changeItem(ref, entry._id, (current) => ({
    ...current,
    deleted: true,
    deletedAt: new Date().toISOString(),
    deletedBy: ctx.caller.sub,
  }));
  if (!changed) throw notFound();
  await followHistory(ctx.caller.companyId, asset._id);
  return { body: changed.after };
});

export const ASSET_STATUS_OPERATIONS: Operations = {
  'assets.statusHistory.create': create,
  'assets.statusHistory.update': update,
  'assets.statusHistory.delete': remove,
};
