import type { ImportMapping } from '../../shared/imports/import-mapping.ts';
import { IMPORT_MESSAGES } from '../../shared/schemas/register-imports.ts';
import { putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { importFileOf } from '../core/imports/register-import-service.ts';
import { conflict, formError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import type { ImportRecord, RowOutcome } from './import-records.ts';
import { changeImport, createImport, findImport, readRowPages } from './import-repository.ts';
import { checkedMapping, importKey, presentImport, readFileHead, runImport } from './import-service.ts';

/**
 * The older one-call import of monthly consumption (POST /consumptions/upload): the file comes in the
 * request, and goes through the same steps as one uploaded by the wizard (kept in the uploads bucket, its header read, the suggested mapping, the
 * whole file judged and written), only at once; `/imports/{id}/rollback` takes it back.
 */

/** Failed rows listed in the answer; the rest are at `/imports/{id}/items`. */
const LISTED_ERRORS = 200;

async function importAtOnce(ctx: OpContext): Promise<OpResult> {
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
  await readFileHead(companyId, id, bytes.length);
  const read = await findImport(companyId, id);
  if (!read || read.status === 'error' || !read.fileRead) {
    const message = read?.error ?? 'The file could not be read';
    throw formError({ file: message }, message);
  }
  const mapping = checkedMapping(read, { ...(read.suggested as ImportMapping), type: 'monthly-consumption' });
  const claimed = await changeImport(companyId, id, (cur) =>
    cur.status === 'pending' ? { status: 'processing', progress: 0, mapping } : undefined,
  );
  if (!claimed) throw conflict('This import is running or has already run');
  await runImport(companyId, id, caller, ctx.log);
  const done = (await findImport(companyId, id)) ?? claimed;
  if (done.status === 'error') {
    const message = done.error ?? 'The import failed';
    throw formError({ file: message }, message);
  }
  const rows = await readRowPages<RowOutcome>(companyId, id, 'import', 0, done.pages?.import ?? 0);
  const errors = rows
    .filter((o) => o.outcome === 'error')
    .slice(0, LISTED_ERRORS)
    .map(({ cells: _cells, ...rest }) => rest);
  return { status: 201, body: { ...presentImport(done), errors } };
}

export const IMPORT_ADAPTER_OPERATIONS: Operations = {
  'imports.consumptionUpload': (ctx) => importAtOnce(ctx),
};
