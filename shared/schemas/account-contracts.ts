import * as z from 'zod';
import { builtOnce } from './built-once.ts';
import {
  contractObject,
  contractRateTypeObject,
  type contractRateTypeSchema,
  requiredText,
} from './contract.ts';
import { onFirstUse } from './on-first-use.ts';
import { declaredSize, UPLOAD_LIMITS } from './upload-size.ts';

/** A file put in storage by a presigned upload, named by the key the upload call gave. */
const uploadedFileObject = () =>
  z.object({
    key: requiredText().max(500),
    name: requiredText().max(200),
  });
export const uploadedFileSchema = onFirstUse(uploadedFileObject);

export { CONTRACT_MESSAGES } from './account-messages.ts';

/** POST /accounts/{id}/contracts: the contract and, optionally, the PDF uploaded for it. */
export const contractCreateObject = builtOnce(() =>
  contractObject().extend({ file: uploadedFileObject().optional() }),
);
export const contractCreateSchema = onFirstUse(contractCreateObject);

/**
 * PATCH /accounts/{id}/contracts/{contractId}: the create body, applied as a patch (functions/core/lib/item-patch.ts):
 * every field may be left out, and an optional one sent as null is cleared (`file: null` removes the PDF).
 */
export const contractUpdateObject = contractCreateObject;

/** POST /accounts/{id}/contracts/upload: asks for a presigned PUT for a PDF. */
export const contractUploadSchema = onFirstUse(() =>
  z.object({
    fileName: requiredText().max(200),
    size: declaredSize(UPLOAD_LIMITS.contractPdf),
  }),
);

/** POST /accounts/{id}/contracts/{contractId}/rate-types: the contract's rates, replacing the ones it had. */
export const contractRateTypesSchema = onFirstUse(() =>
  z.object({
    rateTypes: z.array(contractRateTypeObject()).max(50),
  }),
);

/** How a contract file is described in answers: never its storage key. */
export interface ContractFileView {
  name: string;
  size?: number;
  uploadedAt: string;
}

export interface ContractView {
  _id: string;
  accountId: string;
  name: string;
  reference?: string;
  supplierId?: string;
  startDate: string;
  endDate: string;
  status: 'active' | 'inactive';
  isRenewable: boolean;
  regoBacked?: boolean;
  notes?: string;
  rateTypes: z.infer<typeof contractRateTypeSchema>[];
  file: ContractFileView | null;
  createdAt: string;
  updatedAt: string;
}
