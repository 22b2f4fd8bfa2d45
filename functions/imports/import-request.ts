import { IMPORT_MESSAGES } from '../../shared/schemas/register-imports.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { type ImportFileContext, importFileOf } from '../core/imports/register-import-service.ts';
import { formError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { AnyOpContext, OpResult } from '../core/middleware/api-context.ts';
import type { ImportRecord } from './import-records.ts';
import { createImport } from './import-repository.ts';

/**
 * What a function that takes an import's file in a request does before the imports worker: keep the file
 * and record the import. Kept apart from the import machinery, which such functions need not carry.
 */

export const importKey = (companyId: string, importId: string, fileName: string) =>
  `imports/${companyId}/${importId}/${fileName.replace(/[^\w.-]+/g, '_')}`;

export const presentImport = (r: ImportRecord) => {
  const { samples, ...rest } = r;
  return { ...rest, samples: samples ?? [] };
};

/** Keeps a file sent in a request in the uploads bucket, as an import of monthly consumption. */
export async function keepFile(
  ctx: ImportFileContext & Pick<AnyOpContext, 'caller'>,
  accountId?: string,
): Promise<{ record: ImportRecord; size: number }> {
  const { text, fileName = 'consumption.csv' } = importFileOf(ctx);
  // A file of a header alone is answered before anything is stored.
  if (text.split(/\r?\n/).filter((line) => line.trim() !== '').length < 2)
    throw formError({ file: IMPORT_MESSAGES.empty }, IMPORT_MESSAGES.empty);
  const caller = ctx.caller;
  const companyId = caller.companyId;
  const id = newId();
  const now = new Date().toISOString();
  const record: ImportRecord = {
    _id: id,
    companyId,
    type: 'monthly-consumption',
    fileName,
    ...(accountId ? { accountId } : {}),
    key: importKey(companyId, id, fileName),
    status: 'pending',
    progress: 0,
    fileRead: false,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
  await createImport(record);
  const bytes = new TextEncoder().encode(text);
  await putObject(bucketName('uploads'), record.key, bytes, 'text/csv');
  return { record, size: bytes.length };
}

/**
 * POST /accounts/{id}/consumption-import: a file of one meter's months (no meter column), kept and queued
 * for the imports worker, which reads, maps and imports it as the wizard would; the answer is the pending
 * import, which `GET /imports/{id}` follows and `/imports/{id}/rollback` takes back. The route's item
 * check has already refused a meter the caller may not write, or that is not theirs.
 */
export async function queueMeterImport(
  ctx: ImportFileContext & Pick<AnyOpContext, 'caller'>,
  accountId: string,
): Promise<OpResult> {
  const { record } = await keepFile(ctx, accountId);
  await sendToQueue('imports', [
    { companyId: record.companyId, importId: record._id, action: 'at-once', sub: ctx.caller.sub },
  ]);
  return { status: 202, body: presentImport(record) };
}
