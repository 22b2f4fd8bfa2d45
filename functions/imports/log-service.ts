import * as z from 'zod';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { findResource } from '../../shared/system/resources.ts';
import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { badRequest, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { restoreDeleted } from '../core/resources/resource-service.ts';
import { findImport, findLog } from './import-repository.ts';

/**
 * The company log's own calls: the file an import or its rollback read (`/logs/{id}/attachment`), and
 * the undo of a deletion (`/logs/{id}/delete-rollback`), which brings the deleted item back.
 */

/** A log entry of the caller's company; another company's is not found. */
async function loadLog(ctx: AnyOpContext, id: string) {
  const log = await findLog(ctx.caller.companyId, id);
  if (!log) throw notFound('There is no such log entry');
  return log;
}

const attachment = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const log = await loadLog(ctx, ctx.params.id);
  const found =
    log.batchId && (log.type === 'import' || log.type === 'import-rollback')
      ? await findImport(ctx.caller.companyId, log.batchId)
      : undefined;
  if (!found?.fileRead && !found?.header) throw notFound('This log entry has no file');
  const fileName = found.fileName ?? 'import.csv';
  const url = await presignGet(bucketName('uploads'), found.key, 300, fileName);
  return { body: { url, fileName } };
});

/** The body may repeat what the entry says (02 §7: modelId, type); when it does, it must agree. */
const deleteRollbackBody = onFirstUse(() =>
  z.object({
    modelId: z.string().optional(),
    type: z.string().optional(),
  }),
);

const deleteRollback = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const log = await loadLog(ctx, ctx.params.id);
  const body = parseOrThrow(deleteRollbackBody, ctx.body ?? {});
  if (log.type !== 'delete' || log.modelId === undefined || log.model === undefined)
    throw badRequest('Only a deletion can be rolled back from the log', 'NOT_A_DELETION');
  if ((body.modelId && body.modelId !== log.modelId) || (body.type && body.type !== log.model))
    throw badRequest('The body names another item than the log entry', 'LOG_MISMATCH');
  const resource = findResource(log.model);
  if (resource?.scope !== 'company')
    throw badRequest('Deletions of this kind cannot be rolled back here', 'NOT_RESTORABLE');
  const item = await restoreDeleted(ctx, resource, log.modelId);
  return { body: { model: log.model, item } };
});

export const LOG_OPERATIONS: Operations = {
  'logs.attachment': attachment,
  'logs.deleteRollback': deleteRollback,
};
