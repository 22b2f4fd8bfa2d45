import type { Template } from '../../shared/capture/model.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { conflict, formError, notFound } from '../core/lib/errors.ts';
import type { OpContext } from '../core/middleware/api-context.ts';
import { allTemplateItems, getTemplateItem, replaceTemplate } from './template-repository.ts';

/** A template as stored, with the bookkeeping fields of the generic layer. */
export type StoredTemplate = Template & StoredItem & { deleted?: boolean; updatedAt?: string };

const LISTS = ['supplierRules', 'versions', 'versionRules', 'pages', 'bounds', 'values', 'rates'] as const;

/** Templates written before a list existed read as having it empty. */
export function asTemplate(item: StoredItem): StoredTemplate {
  const out: Record<string, unknown> = { ...item };
  for (const list of LISTS) if (!Array.isArray(out[list])) out[list] = [];
  if (typeof out.status !== 'string') out.status = 'preupload';
  return out as StoredTemplate;
}

/** Every template not deleted, for capture to choose from. */
export async function liveTemplates(): Promise<StoredTemplate[]> {
  return (await allTemplateItems()).filter((t) => t.deleted !== true).map(asTemplate);
}

/** A template for an operation: deleted and absent ones are the same 404. */
export async function loadTemplate(id: string): Promise<StoredTemplate> {
  const item = await getTemplateItem(id);
  if (!item || item.deleted === true) throw notFound('No such template');
  return asTemplate(item);
}

export const CHANGED_MEANWHILE =
  'The template was changed by someone else at the same time. Reload it and make your change again.';

/** Stores a changed template if nobody changed it since it was read, and logs the change. */
export async function saveTemplate(
  ctx: OpContext,
  read: StoredTemplate,
  next: StoredTemplate,
  message: string,
): Promise<StoredTemplate> {
  const stamped = { ...next, updatedAt: new Date().toISOString() };
  if (!(await replaceTemplate(stamped, read.updatedAt))) throw conflict(CHANGED_MEANWHILE);
  await writeActivity(ctx.caller, { type: 'update', model: 'templates', modelId: read._id, message });
  return stamped;
}

/** Body fields a call does not know are refused rather than dropped, so nothing is lost unseen. */
export function refuseUnknown(body: unknown, allowed: readonly string[], hint?: string): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0)
    throw formError(
      Object.fromEntries(unknown.map((k) => [k, hint ?? 'Not a field this call changes'])),
      `Unknown fields: ${unknown.join(', ')}`,
    );
}
