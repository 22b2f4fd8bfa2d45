import * as z from 'zod';
import { safeFileName } from '../../shared/files/file-type.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import type { AutomationErrorCodes } from '../../shared/schemas/responses/automation.ts';
import { declaredSize, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { conflict, notFound, readOnly } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { changeAutomation, getAutomation, getAutomationRun } from './automation-repository.ts';
import { startAutomationRun } from './automation-start.ts';
import { AUTOMATION_ERROR_CODES, AUTOMATION_TEMPLATES } from './automation-templates.ts';

/** Bills go to capture, spreadsheets to the imports worker; Windows browsers call a CSV file an Excel one. */
const FOLDER_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

const templates = operation({}, async (): Promise<OpResult> => {
  return { body: { data: AUTOMATION_TEMPLATES, total: AUTOMATION_TEMPLATES.length } };
});

const errorCodes = operation({}, async (): Promise<OpResult> => {
  return {
    body: {
      codes: Object.keys(AUTOMATION_ERROR_CODES),
      errorCodeMap: AUTOMATION_ERROR_CODES,
    } satisfies AutomationErrorCodes,
  };
});

const run = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const automation = await getAutomation(ctx.caller.companyId, ctx.params.id);
  if (!automation) throw notFound('There is no such automation');
  const started = await startAutomationRun(
    ctx.caller.companyId,
    automation,
    'manual',
    ctx.caller.sub,
    ctx.log,
  );
  return { status: 201, body: started };
});

const uploadBody = onFirstUse(() =>
  z
    .object({
      automationId: z.string().regex(/^[0-9a-f]{24}$/, 'Must be a valid id'),
      fileName: z.string().trim().min(1, 'This field is required').max(200),
      contentType: z.enum(FOLDER_TYPES, 'Must be a PDF, PNG or JPEG bill, or a CSV or XLSX spreadsheet'),
      size: declaredSize(UPLOAD_LIMITS.automationFile),
    })
    .strict(),
);

/** A presigned PUT into the automation's folder; the next folder-import run takes the file. */
const uploadUrl = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(uploadBody, ctx.body);
  const companyId = ctx.caller.companyId;
  const automation = await getAutomation(companyId, body.automationId);
  if (!automation) throw notFound('There is no such automation');
  if (automation.templateId !== 'folder-import') throw conflict('This automation takes no files.');
  const fileName = safeFileName(body.fileName, 'bill');
  const key = `automation/${companyId}/${automation._id}/${newId()}-${fileName}`;
  const expiresIn = 900;
  const url = await presignPut(bucketName('uploads'), key, body.contentType, { expiresIn, size: body.size });
  await changeAutomation(companyId, automation._id, (a) => ({
    ...a,
    folderFile: { key, fileName, contentType: body.contentType, at: new Date().toISOString() },
  }));
  return { status: 201, body: { url, key, fileName, expiresIn } };
});

const attachment = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const found = await getAutomationRun(ctx.caller.companyId, ctx.params.id);
  if (!found) throw notFound('There is no such run');
  if (!found.attachment) throw notFound('This run has no attachment');
  const { key, fileName, contentType } = found.attachment;
  const url = await presignGet(bucketName('uploads'), key, 900, fileName);
  return { body: { url, fileName, contentType } };
});

const READ_ONLY = 'Automation runs are started with POST /automation/{id}/run and written as they go.';

const refuseWrite = operation({}, async (): Promise<OpResult> => {
  throw readOnly(READ_ONLY);
});

/** Another company's run, or none, is not found rather than refused: the answer tells nothing of it. */
const refuseItemWrite = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  if (!(await getAutomationRun(ctx.caller.companyId, ctx.params.id))) throw notFound();
  throw readOnly(READ_ONLY);
});

export const AUTOMATION_OPERATIONS: Operations = {
  'automation.templates': templates,
  'automation.run': run,
  'automation.uploadUrl': uploadUrl,
  'automationRuns.attachment': attachment,
  'automationRuns.errorCodes': errorCodes,
  'automationRuns.readOnly': refuseWrite,
  'automationRuns.readOnlyItem': refuseItemWrite,
};
