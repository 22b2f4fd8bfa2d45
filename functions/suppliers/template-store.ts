import { writeActivity } from '../core/activity/activity-service.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import type { OpContext } from '../core/middleware/api-context.ts';
import {
  allTemplateItems,
  asTemplate,
  changeTemplate,
  getTemplateItem,
  type StoredTemplate,
} from './template-repository.ts';

export { asTemplate, type StoredTemplate };

/** Every template not deleted, for capture to choose from. */
export async function liveTemplates(): Promise<StoredTemplate[]> {
  return (await allTemplateItems()).filter((t) => t.deleted !== true);
}

/** A template for an operation: deleted and absent ones are the same 404. */
export async function loadTemplate(id: string): Promise<StoredTemplate> {
  const item = await getTemplateItem(id);
  if (!item || item.deleted === true) throw notFound('No such template');
  return item;
}

/**
 * Changes a template as stored when written and logs the change. `edit` sees the template as stored and
 * answers it changed (or throws to refuse); it may run more than once, when another change lands first,
 * so it writes nothing itself. A template deleted meanwhile is not brought back: it is gone (404).
 */
export async function saveTemplate(
  ctx: OpContext,
  id: string,
  edit: (t: StoredTemplate) => StoredTemplate | Promise<StoredTemplate>,
  /** Or worked out once written, from what the edit found. */
  message: string | (() => string),
): Promise<StoredTemplate> {
  const changed = await changeTemplate(id, async (current) => {
    if (current.deleted === true) throw notFound('No such template');
    return { ...(await edit(current)), updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound('No such template');
  await writeActivity(ctx.caller, {
    type: 'update',
    model: 'templates',
    modelId: id,
    message: typeof message === 'string' ? message : message(),
  });
  return changed.after;
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
