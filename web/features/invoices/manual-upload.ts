import type { InvoiceKey } from '../../../shared/capture/model.ts';
import { ApiError } from '../../lib/api-client.ts';
import { type Drafts, parseValue, VALUE_FIELDS, type Value, type ValueField } from './invoice-values.ts';
import { INVOICE_MESSAGES } from './messages.ts';
import { captureContentType, refusalOf } from './upload-state.ts';

/** The values a person types for a bill that capture is not asked to read. */
const MANUAL_KEYS: readonly InvoiceKey[] = [
  'invoiceNumber',
  'invoiceDate',
  'startDate',
  'endDate',
  'meterPointNumber',
  'consumption',
  'consumptionUnit',
  'netTotal',
  'vatTotal',
  'grossTotal',
];
export const MANUAL_FIELDS: readonly ValueField[] = MANUAL_KEYS.flatMap(
  (key) => VALUE_FIELDS.find((f) => f.key === key) ?? [],
);

/** The form's validation errors: one per field (`file` or a value key), and one for the whole form. */
export interface ManualErrors {
  fields: Record<string, string>;
  message?: string;
}

/** POST /invoices/manual-upload, first without the key (checks, and a presigned PUT), then with it. */
export interface ManualUploadBody {
  fileName: string;
  contentType: string;
  size: number;
  accountId: string;
  values: Partial<Record<InvoiceKey, Value>>;
  key?: string;
}

/**
 * Reads the form as the first call's body, or the errors that stop it being sent: no file, a file that
 * cannot be captured, a value that does not read as its type, or a period that ends before it starts.
 */
export function manualUploadRequest(
  file: { name: string; type: string; size: number } | undefined,
  drafts: Drafts,
  accountId: string,
): { ok: true; body: ManualUploadBody } | { ok: false; errors: ManualErrors } {
  const fields: Record<string, string> = {};
  const values: Partial<Record<InvoiceKey, Value>> = {};
  for (const field of MANUAL_FIELDS) {
    const parsed = parseValue(field.type, drafts[field.key] ?? '');
    if (!parsed.ok) fields[field.key] = parsed.message;
    else if (parsed.value !== null) values[field.key] = parsed.value;
  }
  const { startDate, endDate } = values;
  if (typeof startDate === 'string' && typeof endDate === 'string' && endDate < startDate)
    fields.endDate = 'The period must end on or after its start';
  const refusal = file ? refusalOf(file) : 'Choose a file';
  if (refusal) fields.file = refusal;
  if (!file || Object.keys(fields).length > 0) return { ok: false, errors: { fields } };
  return {
    ok: true,
    body: { fileName: file.name, contentType: captureContentType(file), size: file.size, accountId, values },
  };
}

/** The server names the file's problems by the request's own fields; the form shows them on the file. */
const FILE_KEYS = new Set(['file', 'fileName', 'contentType', 'size', 'key']);

/**
 * A failed manual upload as the form's validation errors (02 §5): the server's field messages beside
 * their fields (a value's `values.x` beside x, the file's beside the file), any it cannot place and any
 * other refusal above the form in the server's words, and an upload that failed in transit, or a server
 * fault, as the upload message.
 */
export function manualUploadErrors(error: unknown): ManualErrors {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    const fields: Record<string, string> = {};
    const unplaced: string[] = [];
    const shown = new Set<string>(MANUAL_KEYS);
    for (const [key, message] of Object.entries(error.formMessages ?? {})) {
      const name = key.startsWith('values.') ? key.slice('values.'.length) : key;
      if (FILE_KEYS.has(name)) fields.file ??= message;
      else if (shown.has(name)) fields[name] = message;
      else unplaced.push(message);
    }
    if (!error.formMessages) unplaced.push(error.message || INVOICE_MESSAGES.uploadProblem);
    return { fields, ...(unplaced.length > 0 ? { message: unplaced.join(' ') } : {}) };
  }
  return { fields: {}, message: INVOICE_MESSAGES.uploadProblem };
}
