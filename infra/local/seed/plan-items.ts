import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { resourceSchema, subResourceSchema } from '../../../shared/system/resource-schemas.ts';
import '../../../shared/system/resource-schemas/all.ts';
import { findResource, type ResourceDecl } from '../../../shared/system/resources.ts';

/**
 * A planned item: its data checked by the resource's schema (so defaults are filled and anything the API
 * would refuse fails the plan), with the id and fields the API stamps. Nothing is written here: the seed
 * hands planned items to the services and repositories the API writes with. Ids and times come from the
 * plan, so the ids that tie the demo data together are known before anything is written.
 */
function resource(name: string): ResourceDecl {
  const decl = findResource(name);
  if (!decl) throw new Error(`No resource ${name} is declared`);
  return decl;
}

export interface StampOptions {
  id: string;
  companyId?: string;
  createdBy: string;
  /** ISO time; now by default */
  createdAt?: string;
  /** Fields outside the schema that the API itself adds (e.g. a sub-item's parentId) */
  extra?: Record<string, unknown>;
}

export function stamped(
  name: string,
  data: Record<string, unknown>,
  opts: StampOptions,
  sub?: string,
): StoredItem {
  const decl = resource(name);
  const schema = sub ? subResourceSchema(name, sub) : resourceSchema(name);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`Seed data for ${name} is invalid: ${JSON.stringify(parsed.error.issues[0])}`);
  }
  const at = opts.createdAt ?? new Date().toISOString();
  return {
    ...(parsed.data as Record<string, unknown>),
    ...opts.extra,
    _id: opts.id,
    ...(decl.scope === 'company' ? { companyId: opts.companyId } : {}),
    createdAt: at,
    updatedAt: at,
    createdBy: opts.createdBy,
  };
}

/** What the caller sent: a planned item without the fields the API stamps itself. */
export function bodyOf(item: StoredItem): Record<string, unknown> {
  const { _id, companyId, createdAt, updatedAt, createdBy, parentId, ...body } = item;
  return body;
}
