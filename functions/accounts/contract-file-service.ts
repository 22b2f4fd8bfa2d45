import {
  CAPTURE_CONTENT_TYPES,
  type CaptureFileType,
  detectCaptureFileType,
  safeFileName,
} from '../../shared/files/file-type.ts';
import { CONTRACT_MESSAGES } from '../../shared/schemas/account-messages.ts';
import { contractDownloadQuery } from '../../shared/schemas/queries.ts';
import type { PresignedUpload } from '../../shared/schemas/responses/accounts.ts';
import { tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { storedUpload } from '../core/adapters/object-start.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { routeAccount } from './account-links.ts';
import { loadContract } from './contract-store.ts';

/** Contract PDFs live in the documents bucket under their company and account. */
const contractPrefix = (companyId: string, accountId: string) => `contracts/${companyId}/${accountId}/`;

const PDF = CAPTURE_CONTENT_TYPES.pdf;

/** What a refused file turned out to be, for the field message. */
const KIND_NAMES: Record<CaptureFileType, string> = {
  pdf: 'a PDF document',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  tiff: 'a TIFF image',
};

export interface StoredContractFile {
  key: string;
  name: string;
  uploadedAt: string;
}

/**
 * Checks an uploaded contract file by its bytes, not its name: it must be this account's own upload and
 * start like a PDF within the size limit. Anything else is a form error on `file` that says what the file was.
 */
export async function verifyContractPdf(
  companyId: string,
  accountId: string,
  file: { key: string; name: string },
): Promise<StoredContractFile> {
  if (!file.key.startsWith(contractPrefix(companyId, accountId)))
    throw formError({ file: CONTRACT_MESSAGES.uploadMissing });
  const stored = await storedUpload(bucketName('documents'), file.key, 1024);
  if (!stored) throw formError({ file: CONTRACT_MESSAGES.uploadMissing });
  if (stored.size > UPLOAD_LIMITS.contractPdf)
    throw formError({ file: tooLargeMessage(UPLOAD_LIMITS.contractPdf) });
  const kind = detectCaptureFileType(stored.start);
  if (kind !== 'pdf') {
    const what = kind ? KIND_NAMES[kind] : 'not a PDF document';
    throw formError({ file: `${CONTRACT_MESSAGES.notPdf}: the uploaded file is ${what}` });
  }
  return {
    key: file.key,
    name: safeFileName(file.name, 'contract.pdf'),
    uploadedAt: new Date().toISOString(),
  };
}

/** POST /accounts/{id}/contracts/upload: a presigned PUT for a contract PDF, checked when it is attached. */
const upload = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  // Its schema is of zod's full build, loaded with the first upload rather than at start.
  const { contractUploadSchema } = await import('../../shared/schemas/account-contracts.ts');
  const { fileName, size } = parseOrThrow(contractUploadSchema, ctx.body ?? {});
  const key = `${contractPrefix(ctx.caller.companyId, account._id)}${newId()}.pdf`;
  return {
    body: {
      uploadUrl: await presignPut(bucketName('documents'), key, PDF, { size }),
      method: 'PUT',
      headers: { 'Content-Type': PDF },
      key,
      fileName,
    } satisfies PresignedUpload,
  };
});

/** The name a download is saved under: the one asked for, else the uploaded one, always ending .pdf. */
export function downloadName(asked: string | undefined, stored: string): string {
  const name = safeFileName(asked?.trim() ? asked : stored, 'contract.pdf');
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}

/** GET /accounts/{id}/contracts/{contractId}/download?name=: `{ url }`, a presigned GET of the PDF. */
const download = operation(
  { params: ['id', 'contractId'], query: contractDownloadQuery },
  async (ctx): Promise<OpResult> => {
    const account = await routeAccount(ctx.caller, ctx.params.id);
    const contract = await loadContract(ctx.caller.companyId, account._id, ctx.params.contractId);
    const file = objectOf(contract.file);
    if (typeof file.key !== 'string' || !file.key) throw notFound(CONTRACT_MESSAGES.noFile);
    const name = downloadName(ctx.query.name, typeof file.name === 'string' ? file.name : '');
    return { body: { url: await presignGet(bucketName('documents'), file.key, 900, name), name } };
  },
);

export const CONTRACT_FILE_OPERATIONS: Operations = {
  'contracts.upload': upload,
  'contracts.download': download,
};
