import type { ImportMapping, ImportType } from '../../shared/imports/import-mapping.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { ApiError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { ImportRecord } from './import-records.ts';
import { changeImport, createImport, findImport } from './import-repository.ts';
import { importKey } from './import-request.ts';
import { checkedMapping } from './import-service.ts';

export interface DroppedFile {
  companyId: string;
  fileName: string;
  bytes: Uint8Array;
  /** What the file holds; read from its columns when not given. */
  type?: ImportType;
  /** Whom the import runs as: its rows are judged against this user's access. */
  sub: string;
}

export type DroppedFileOutcome =
  | { importId: string; queued: true }
  | { importId: string; queued: false; error: string };

/**
 * A spreadsheet handed over by another part of the product (a file dropped into an automation's folder):
 * stored as an upload, its header read, the suggested mapping (or a saved template's) taken as it is, and
 * the import queued for the imports worker, as if its owner had pressed Import in the wizard.
 */
export async function importDroppedFile(file: DroppedFile): Promise<DroppedFileOutcome> {
  const { companyId } = file;
  const id = newId();
  const now = new Date().toISOString();
  const record: ImportRecord = {
    _id: id,
    companyId,
    type: file.type ?? 'monthly-consumption',
    ...(file.type ? {} : { typeFromFile: true }),
    fileName: file.fileName,
    key: importKey(companyId, id, file.fileName),
    status: 'pending',
    progress: 0,
    fileRead: false,
    createdAt: now,
    updatedAt: now,
    createdBy: file.sub,
  };
  await createImport(record);
  await putObject(bucketName('uploads'), record.key, file.bytes, 'application/octet-stream', {
    'company-id': companyId,
  });
  // Read here rather than left to the bucket's event, so the import can be queued at once.
  const { readFileHead } = await import('./import-run.ts');
  await readFileHead(companyId, id, file.bytes.byteLength);
  const read = await findImport(companyId, id);
  if (!read?.fileRead)
    return { importId: id, queued: false, error: read?.error ?? 'The file could not be read' };
  let mapping: ImportMapping;
  try {
    mapping = checkedMapping(read, read.mapping ?? read.suggested);
  } catch (err) {
    const error = err instanceof ApiError ? err.message : 'The file could not be mapped';
    await changeImport(companyId, id, () => ({ status: 'error', error }));
    return { importId: id, queued: false, error };
  }
  const claimed = await changeImport(companyId, id, (cur) =>
    cur.status === 'pending' ? { status: 'processing', progress: 0, mapping } : undefined,
  );
  if (!claimed) return { importId: id, queued: false, error: 'The import had already started' };
  await sendToQueue('imports', [{ companyId, importId: id, action: 'import', sub: file.sub }]);
  return { importId: id, queued: true };
}
