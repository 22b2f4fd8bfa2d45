/**
 * | pattern                                   | key condition                                            | index |
 * | ----------------------------------------- | -------------------------------------------------------- | ----- |
 * | one import or import template by id       | pk = C#{companyId}#imports (#import-templates), sk = id  | table |
 * | write an import or template               | pk = C#{companyId}#imports (#import-templates), sk = id  | table |
 * | change an import (revision-checked)       | pk = C#{companyId}#imports, sk = id                      | table |
 * | a company's import templates              | pk = C#{companyId}#import-templates                      | table |
 * | write a stage's row outcomes (pages)      | pk = C#{companyId}#imports#{importId}#rows, sk = {stage}#{n} | table |
 * | one entry of the company log by id         | pk = C#{companyId}#logs, sk = id                         | table |
 * | a stage's row outcomes, in row order      | pk = C#{companyId}#imports#{importId}#rows, sk BETWEEN {stage}#{n} AND {stage}#999999 | table |
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  getItem,
  putItem,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { eachQueried } from '../core/data/query-pages.ts';
import { resourceRef } from '../core/resources/resource-refs.ts';
import type { ImportRecord, StoredTemplate } from './import-records.ts';

export const importsRef = (companyId: string): CollectionRef => resourceRef(companyId, 'imports');
export const templatesRef = (companyId: string): CollectionRef => resourceRef(companyId, 'import-templates');

const rowsPk = (companyId: string, importId: string) =>
  keys.subCollection({ companyId }, 'imports', importId, 'rows');

export async function findImport(companyId: string, id: string): Promise<ImportRecord | undefined> {
  const item = await getItem(importsRef(companyId).pk, id);
  return item && item.deleted !== true ? (item as unknown as ImportRecord) : undefined;
}

/** What the log's own calls read of an entry; a field stored as anything but text reads as absent. */
export interface StoredLogEntry {
  _id: string;
  type?: string;
  model?: string;
  modelId?: string;
  batchId?: string;
}

const textOrNone = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An entry of the company's activity log (the logs resource). */
export async function findLog(companyId: string, id: string): Promise<StoredLogEntry | undefined> {
  const item = await getItem(resourceRef(companyId, 'logs').pk, id);
  if (!item || item.deleted === true) return undefined;
  return {
    _id: item._id,
    type: textOrNone(item.type),
    model: textOrNone(item.model),
    modelId: textOrNone(item.modelId),
    batchId: textOrNone(item.batchId),
  };
}

export async function createImport(record: ImportRecord): Promise<void> {
  await putItem(importsRef(record.companyId), record as unknown as StoredItem, { mustNotExist: true });
}

/**
 * Changes an import from a fresh read; `change` answers the fields to set, or undefined to leave it.
 * Answers the import as written, or undefined when nothing was written.
 */
export async function changeImport(
  companyId: string,
  id: string,
  change: (current: ImportRecord) => Partial<ImportRecord> | undefined,
): Promise<ImportRecord | undefined> {
  const out = await changeItem(importsRef(companyId), id, (current) => {
    const fields = change(current as unknown as ImportRecord);
    return fields ? { ...current, ...fields, updatedAt: new Date().toISOString() } : undefined;
  });
  return out?.written ? (out.after as unknown as ImportRecord) : undefined;
}

export async function listTemplates(companyId: string): Promise<StoredTemplate[]> {
  return (await queryAll(templatesRef(companyId).pk))
    .filter((t) => t.deleted !== true)
    .map((t) => t as unknown as StoredTemplate);
}

export async function findTemplate(companyId: string, id: string): Promise<StoredTemplate | undefined> {
  const item = await getItem(templatesRef(companyId).pk, id);
  return item && item.deleted !== true ? (item as unknown as StoredTemplate) : undefined;
}

export async function putTemplate(template: StoredTemplate): Promise<void> {
  await putItem(templatesRef(template.companyId), template as unknown as StoredItem);
}

/** Outcomes a page of this many rows: a page stays far below the item size limit. */
export const ROWS_PER_PAGE = 400;

export type Stage = 'preview' | 'import' | 'undo' | 'rollback' | 'journal' | 'rollback-journal';

/**
 * Writes a stage's outcomes in pages from page `firstPage` (after pages written before), replacing any
 * earlier pages of the same numbers; answers how many pages it wrote. A page keeps its rows as one JSON
 * text: as a list of maps, a file's hundred thousand rows were most of what the worker encoded and the
 * table took apart, for a page that is only ever read whole.
 */
export async function putRowPages<T>(
  companyId: string,
  importId: string,
  stage: Stage,
  rows: readonly T[],
  firstPage = 0,
): Promise<number> {
  const pk = rowsPk(companyId, importId);
  const pages: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_PAGE) {
    pages.push({
      pk,
      sk: `${stage}#${String(firstPage + pages.length).padStart(6, '0')}`,
      rowsJson: JSON.stringify(rows.slice(i, i + ROWS_PER_PAGE)),
    });
  }
  const table = config().tableName;
  for (let i = 0; i < pages.length; i += 25) {
    let requests = pages.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error('The table kept refusing a batch of writes');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (out.UnprocessedItems?.[table] ?? []).flatMap((r) =>
        r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : [],
      );
    }
  }
  return pages.length;
}

/** A stage's outcomes from page `fromPage`, up to `pages` pages. */
export async function readRowPages<T>(
  companyId: string,
  importId: string,
  stage: Stage,
  fromPage = 0,
  pages = Number.POSITIVE_INFINITY,
): Promise<T[]> {
  const out: T[] = [];
  let read = 0;
  await eachQueried(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': rowsPk(companyId, importId),
        ':from': `${stage}#${String(fromPage).padStart(6, '0')}`,
        ':to': `${stage}#999999`,
      },
    },
    (item) => {
      if (read >= pages) return;
      // Pages written before rows were kept as text hold them as a list.
      const rows = typeof item.rowsJson === 'string' ? (JSON.parse(item.rowsJson) as T[]) : item.rows;
      if (Array.isArray(rows)) for (const row of rows as T[]) out.push(row);
      read++;
    },
    () => read >= pages,
  );
  return out;
}

// Imports are written by the import calls and worker only: the generic writes are refused.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    imports: ImportRecord;
  }
}
