/**
 * | pattern                                 | key condition                                   | index |
 * | --------------------------------------- | ----------------------------------------------- | ----- |
 * | one template by id                      | pk = G#templates, sk = id                       | table |
 * | every template                          | pk = G#templates                                | table |
 * | a supplier's templates                  | gsi pk = G#templates#supplierId#{supplierId}    | gsi   |
 * | the template holding a supplier utility | pk = G#template-slots, sk = supplierId#utility  | table |
 * | a template preview analysis             | pk = G#template-previews, sk = jobId            | table |
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Template } from '../../shared/capture/model.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  isConditionFailure,
  listItems,
  putItem,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';

/**
 * Supplier templates are global reference data in the generic `templates` collection. Two more partitions
 * sit beside it, outside the collection so that lists and the capture worker never see them: one slot per
 * supplier and utility (a template's claim to be that pair's only template) and the preview analyses.
 */
const SLOTS_PK = 'G#template-slots';
const PREVIEWS_PK = 'G#template-previews';

export const templatesRef = (): CollectionRef => declaredRef('templates', {});

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

export async function getTemplateItem(id: string): Promise<StoredTemplate | undefined> {
  const item = await getItem(templatesRef().pk, id);
  return item && asTemplate(item);
}

/** Every template of every supplier, deleted ones included. */
export const allTemplateItems = async (): Promise<StoredTemplate[]> =>
  (await queryAll(templatesRef().pk)).map(asTemplate);

/** A supplier's templates (by the supplierId index), deleted ones left out. */
export async function templatesOfSupplier(supplierId: string): Promise<StoredTemplate[]> {
  const out = await listItems(templatesRef(), { filters: { supplierId }, limit: 1000, skip: 0 });
  return out.data.map(asTemplate);
}

export async function insertTemplate(item: StoredItem): Promise<void> {
  await putItem(templatesRef(), item, { mustNotExist: true });
}

/**
 * Changes a template as stored now, retried from a fresh read if another write lands in between (see
 * changeItem): two people adding values or rates to one template both keep what they added. The change
 * sees the template as `asTemplate` reads it, and the answer is read the same way.
 */
export async function changeTemplate(
  id: string,
  change: (current: StoredTemplate) => StoredTemplate | undefined | Promise<StoredTemplate | undefined>,
): Promise<{ before: StoredTemplate; after: StoredTemplate; written: boolean } | undefined> {
  const changed = await changeItem(templatesRef(), id, (current) => change(asTemplate(current)));
  return changed && { ...changed, before: asTemplate(changed.before), after: asTemplate(changed.after) };
}

const slotKey = (supplierId: string, type: string) => ({ pk: SLOTS_PK, sk: `${supplierId}#${type}` });

/** The template holding a supplier's utility slot, if any. */
export async function slotHolder(supplierId: string, type: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: slotKey(supplierId, type) }),
  );
  return typeof out.Item?.templateId === 'string' ? out.Item.templateId : undefined;
}

/**
 * Claims a supplier's utility for a template: true when the slot was free, or held by `staleHolder` (a
 * template since deleted). Conditional, so of two creates at the same moment only one succeeds.
 */
export async function claimSlot(
  supplierId: string,
  type: string,
  templateId: string,
  staleHolder?: string,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { ...slotKey(supplierId, type), templateId, claimedAt: new Date().toISOString() },
        ConditionExpression: staleHolder ? 'templateId = :stale' : 'attribute_not_exists(pk)',
        ...(staleHolder ? { ExpressionAttributeValues: { ':stale': staleHolder } } : {}),
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Frees the slot, if this template still holds it. */
export async function releaseSlot(supplierId: string, type: string, templateId: string): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: config().tableName,
        Key: slotKey(supplierId, type),
        ConditionExpression: 'templateId = :id',
        ExpressionAttributeValues: { ':id': templateId },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** One Textract analysis of a template sample; `outputKey` names its JSON in the uploads bucket. */
export interface PreviewJob {
  jobId: string;
  templateId: string;
  sampleKey: string;
  status: 'running' | 'succeeded' | 'failed';
  outputKey?: string;
  pageCount?: number;
  error?: string;
  /** The failure lies in the document (encrypted, damaged): analysing it again will not help. */
  documentProblem?: boolean;
  startedAt: string;
  finishedAt?: string;
}

export async function getPreviewJob(jobId: string): Promise<PreviewJob | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: { pk: PREVIEWS_PK, sk: jobId } }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, ...job } = out.Item;
  return job as PreviewJob;
}

/**
 * Records that an analysis has started, unless one of the same sample already runs (started after
 * `runningSince`) or has finished: false then, and the caller answers with that one instead.
 */
export async function startPreviewJob(job: PreviewJob, runningSince: string): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { pk: PREVIEWS_PK, sk: job.jobId, ...job },
        ConditionExpression:
          'attribute_not_exists(pk) OR #status = :failed OR (#status = :running AND startedAt < :since)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':running': 'running', ':since': runningSince },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function putPreviewJob(job: PreviewJob): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: config().tableName, Item: { pk: PREVIEWS_PK, sk: job.jobId, ...job } }),
  );
}

// Templates are written by the template editor's calls, which give every rule and bound an id.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    templates: StoredTemplate;
  }
}
