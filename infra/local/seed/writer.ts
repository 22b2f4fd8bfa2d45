import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../functions/adapters/dynamo.ts';
import { config } from '../../../functions/config.ts';
import {
  type CollectionRef,
  keyAttributes,
  type StoredItem,
} from '../../../functions/repositories/item-repository.ts';
import { keys } from '../../../functions/repositories/keys.ts';
import { findResource, type ResourceDecl } from '../../../shared/system/resources.ts';

/**
 * Writes seed items exactly as the generic resource layer would: the data goes through the resource's
 * schema (so defaults are filled and anything the API would refuse fails here), the item gets the fields
 * the API stamps, and keys and index attributes come from the item repository.
 */
function resource(name: string): ResourceDecl {
  const decl = findResource(name);
  if (!decl) throw new Error(`No resource ${name} is declared`);
  return decl;
}

/** The collection of a resource, built as resource-service's collectionOf builds it. */
export function collection(name: string, companyId?: string): CollectionRef {
  const decl = resource(name);
  if ((decl.scope === 'company') !== (companyId !== undefined)) {
    throw new Error(`${name} is a ${decl.scope} resource`);
  }
  return {
    pk: keys.collection(decl.scope === 'company' ? { companyId } : {}, decl.name),
    indexes: decl.indexes ?? [],
    searchFields: decl.searchFields,
  };
}

/** A sub-resource collection (e.g. an account's status history), as resource-service builds it. */
export function subCollection(name: string, companyId: string, parentId: string, sub: string): CollectionRef {
  const decl = resource(name);
  if (!decl.subResources?.[sub]) throw new Error(`${name} has no sub-resource ${sub}`);
  return { pk: keys.subCollection({ companyId }, decl.name, parentId, sub), indexes: [], searchFields: [] };
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
  const schema = sub ? decl.subResources?.[sub]?.schema : decl.schema;
  if (!schema) throw new Error(`${name} has no sub-resource ${sub}`);
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

const BATCH = 25;

/** Many items of one collection at once: BatchWrite in 25s, a few batches in flight, retrying leftovers. */
export async function putItems(ref: CollectionRef, items: readonly StoredItem[]): Promise<void> {
  const tableName = config().tableName;
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    batches.push(items.slice(i, i + BATCH).map((item) => ({ ...item, ...keyAttributes(ref, item) })));
  }
  await inPool(batches, 4, async (batch) => {
    let requests = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= 8) throw new Error(`The table kept refusing writes to ${ref.pk}`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = (out.UnprocessedItems?.[tableName] ?? []).flatMap((r) =>
        r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : [],
      );
    }
  });
}

/** Runs `task` over `items` with at most `limit` running at once. */
export async function inPool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
