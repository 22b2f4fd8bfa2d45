import useSWR, { useSWRConfig } from 'swr';
import { USERS_LIST } from '../../../shared/access/permission-names.ts';
import { type AccessSubject, canUseRoute } from '../../../shared/access/route-access.ts';
import type { ListPage } from '../../../shared/schemas/responses/common.ts';
import type {
  BulkAnswer,
  CaptureItem,
  FileLink,
  InvoiceView,
  ManualTicket,
  PolledInvoice,
  InvoiceUploadTicket as UploadTicket,
  UserOption,
  ValidationItem,
  ValidationSummary,
} from '../../../shared/schemas/responses/invoices.ts';
import type { Supplier } from '../../../shared/schemas/responses/suppliers.ts';
import { type ApiClient, ApiError } from '../../lib/api-client.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import { downloadFrom, putWithProgress } from '../../lib/upload.ts';
import type { RateBody } from './invoice-values.ts';
import type { ManualUploadBody } from './manual-upload.ts';
import type { QueueFilters, QueueGroup } from './validation-state.ts';
import { queueCountKey, queueKey } from './validation-state.ts';

export type { ListPage } from '../../../shared/schemas/responses/common.ts';
export type {
  BulkAnswer,
  CaptureItem,
  ExtractedValueView,
  FileLink,
  InvoiceAccount,
  InvoiceUploadTicket as UploadTicket,
  InvoiceView,
  RateView,
  UserOption,
  ValidationItem,
  ValidationSummary,
} from '../../../shared/schemas/responses/invoices.ts';
/** An item of GET /suppliers, as the bill pages use it. */
export type SupplierOption = Pick<Supplier, '_id' | 'name'>;

/** Where each upload page sends its documents. */
export const UPLOAD_CALLS = {
  invoices: '/invoices/captur-upload',
  validation: '/invoice-capture/upload',
} as const;
export type UploadCall = keyof typeof UPLOAD_CALLS;

/** One SWR key per call; the live connection's '/invoices' and '/invoice-validation' keys cover them all. */
export const invoiceKeys = {
  batch: (batchId: string) => `/invoices?batchId=${batchId}&$limit=100`,
  invoice: (id: string) => `/invoices/${id}`,
  preview: (id: string) => `/invoices/${id}/download?preview=true`,
  summary: (id: string) => `/invoice-validation/${id}/summary`,
  queue: queueKey,
  count: queueCountKey,
  search: (query: string) => `/invoice-validation/search?query=${encodeURIComponent(query)}`,
  captures: (page: number, size: number) =>
    `/invoice-validation/invoices?limit=${size}&skip=${(page - 1) * size}&$sort=-createdAt`,
  ofAccount: (accountId: string, creditNotes: boolean, deleted: boolean) =>
    `/invoices?accountId=${accountId}&isCreditNote=${creditNotes}&$sort=-createdAt&limit=1000${deleted ? '&$deleted=true' : ''}`,
  suppliers: '/suppliers?limit=1000',
  users: (companyId: string) => `/companies/${companyId}/users`,
} as const;

export const isInvoiceKey = (key: unknown) =>
  typeof key === 'string' && (key.startsWith('/invoices') || key.startsWith('/invoice-validation'));

/** After a change: every invoice and validation answer is fetched again. */
export function useRefreshInvoices() {
  const { mutate } = useSWRConfig();
  return () => mutate(isInvoiceKey);
}

export const useBatch = (batchId: string | undefined, polling: boolean, intervalMs: number) =>
  useSWR<ListPage<PolledInvoice>>(batchId && polling ? invoiceKeys.batch(batchId) : null, {
    refreshInterval: intervalMs,
    // A poll that fails is tried again on the next tick, not in a burst.
    shouldRetryOnError: false,
  });

export const useQueue = (group: QueueGroup, filters: QueueFilters, page: number) =>
  useSWR<ListPage<ValidationItem>>(invoiceKeys.queue(group, filters, page), { keepPreviousData: true });
export const useQueueCount = (group: QueueGroup, filters: QueueFilters) =>
  useSWR<ListPage<Pick<ValidationItem, '_id'>>>(invoiceKeys.count(group, filters), {
    keepPreviousData: true,
  });
export const useInvoice = (id: string | undefined) =>
  useSWR<InvoiceView>(id ? invoiceKeys.invoice(id) : null);
export const useSummary = (id: string | undefined) =>
  useSWR<ValidationSummary>(id ? invoiceKeys.summary(id) : null);

export const useSupplierOptions = () =>
  useSWR<ListPage<SupplierOption>>(invoiceKeys.suppliers, { shouldRetryOnError: false });
/**
 * Company members for assignment; people who may not list them (a bill validator) are not sent to ask, and
 * can still assign themselves.
 */
export const useUserOptions = (companyId: string, access: AccessSubject) =>
  useSWR<ListPage<UserOption> | UserOption[]>(
    canUseRoute(USERS_LIST, access) ? invoiceKeys.users(companyId) : null,
    { shouldRetryOnError: false },
  );

export const usersOf = (answer: ListPage<UserOption> | UserOption[] | undefined): UserOption[] =>
  Array.isArray(answer) ? answer : (answer?.data ?? []);

/**
 * The bulk calls of the queues (02 §7). A call that changed none of the invoices it was given fails
 * with the first reason, so a single invoice's action reads as failed.
 */
export function bulk(api: ApiClient) {
  const post = async (path: string, body: { ids: string[] } & Record<string, unknown>) => {
    const answer = await api.post<BulkAnswer>(`/invoice-validation/${path}`, body);
    const failed = answer.failed ?? [];
    if (answer.updated === 0 && failed.length > 0)
      throw new ApiError(400, 'BULK_FAILED', failed[0]?.message ?? 'Nothing was changed');
    return answer;
  };
  return {
    hold: (ids: string[], hold: boolean) => post('bulk-hold', { ids, hold }),
    tag: (ids: string[], tags: string[]) => post('bulk-tag', { ids, tags }),
    complete: (ids: string[]) => post('bulk-complete', { ids }),
    revalidate: (ids: string[]) => post('bulk-revalidate', { ids }),
    force: (ids: string[]) => post('bulk-force', { ids }),
    remove: (ids: string[]) => post('bulk-delete', { ids }),
    assign: (ids: string[], userSub: string | null) => post('assign-users', { ids, userSub }),
  };
}

/** A bulk call's outcome in a sentence: how many were changed, and why any were not. */
export function bulkMessage(answer: BulkAnswer, done: string): string {
  const n = answer.updated;
  const head = `${n} ${n === 1 ? 'invoice' : 'invoices'} ${done}.`;
  const failed = answer.failed ?? [];
  const missing = answer.missing?.length ?? 0;
  const notes = [
    ...(failed.length > 0
      ? [`${failed.length} could not be: ${[...new Set(failed.map((f) => f.message))].join('; ')}.`]
      : []),
    ...(missing > 0 ? [`${missing} no longer ${missing === 1 ? 'exists' : 'exist'}.`] : []),
  ];
  return [head, ...notes].join(' ');
}

/** Any change to a bill can move it between queues, counts and lists: every invoice read is stale. */
const INVOICE_READS = [(key: string) => isInvoiceKey(key)];
const invoiceWrite = <A extends unknown[], R>(call: (api: ApiClient, ...args: A) => Promise<R>) =>
  useEndpoint(call, () => INVOICE_READS);

type Kind = 'invoices' | 'credit-notes';

/** GET /invoices/{id}/refresh: the bill's figures worked out again. */
export const useRefreshInvoice = () => invoiceWrite((api, id: string) => api.get(`/invoices/${id}/refresh`));

/** PUT /accounts/{id}/invoices/{invoiceId}/to-credit-note, or …/credit-notes/{id}/to-invoice */
export const useConvertInvoice = (accountId: string) =>
  invoiceWrite((api, id: string, kind: Kind) =>
    api.put(
      kind === 'invoices'
        ? `/accounts/${accountId}/invoices/${id}/to-credit-note`
        : `/accounts/${accountId}/credit-notes/${id}/to-invoice`,
    ),
  );

/** POST /invoices/{id}/stamp, or /accounts/{id}/credit-notes/{creditNoteId}/stamp */
export const useStampInvoice = (accountId: string) =>
  invoiceWrite((api, id: string, kind: Kind) =>
    api.post(
      kind === 'invoices' ? `/invoices/${id}/stamp` : `/accounts/${accountId}/credit-notes/${id}/stamp`,
    ),
  );

/** DELETE /accounts/{id}/invoice/{invoiceId}: restorable afterwards. */
export const useDeleteAccountInvoice = (accountId: string) =>
  invoiceWrite((api, id: string) => api.del(`/accounts/${accountId}/invoice/${id}`));

/** PUT /invoices/{id}/restore */
export const useRestoreInvoice = () => invoiceWrite((api, id: string) => api.put(`/invoices/${id}/restore`));

/** GET …/download: a short-lived link to a stored file, handed to the browser to save. */
export const useDownloadFile = () =>
  useEndpoint(async (api, path: string) => {
    downloadFrom((await api.get<FileLink>(path)).url);
  });

/** GET /invoices/{id}/download?preview=true: a link for showing the document, not saving it. */
export const usePreviewLink = () =>
  useEndpoint((api, id: string) => api.get<FileLink>(invoiceKeys.preview(id)));

/** POST /invoices/{id}/rates */
export const useAddInvoiceRate = () =>
  invoiceWrite((api, invoiceId: string, rate: RateBody) => api.post(`/invoices/${invoiceId}/rates`, rate));

/** DELETE /invoices/{id}/rates/{rateId} */
export const useDeleteInvoiceRate = () =>
  invoiceWrite((api, invoiceId: string, rateId: string) => api.del(`/invoices/${invoiceId}/rates/${rateId}`));

/** POST /invoices/{id}/confirm */
export const useConfirmInvoice = () => invoiceWrite((api, id: string) => api.post(`/invoices/${id}/confirm`));

/** PUT /invoice-validation/{id}/revalidate */
export const useRevalidateInvoice = () =>
  invoiceWrite((api, validationId: string) => api.put(`/invoice-validation/${validationId}/revalidate`));

/** PUT /invoice-validation/{id}/force */
export const useForceInvoice = () =>
  invoiceWrite((api, validationId: string) => api.put(`/invoice-validation/${validationId}/force`));

/** PATCH /invoices/{id}/manual-update: typed values, and the account the bill is filed on. */
export const useUpdateInvoiceValues = () =>
  invoiceWrite((api, id: string, body: { values: Record<string, unknown>; accountId?: string }) =>
    api.patch(`/invoices/${id}/manual-update`, body),
  );

/** POST /invoice-capture/{id}/start-capture */
export const useStartCapture = () =>
  invoiceWrite((api, captureId: string) => api.post(`/invoice-capture/${captureId}/start-capture`));

/** PUT /invoice-capture/{id}/start-validation */
export const useStartValidation = () =>
  invoiceWrite((api, captureId: string) => api.put(`/invoice-capture/${captureId}/start-validation`));

/** POST /invoices/manual-upload for a ticket, the PUT, then POST /invoices/manual-upload with its key. */
export const useManualUpload = () =>
  invoiceWrite(async (api, body: ManualUploadBody, file: File, onProgress: (percent: number) => void) => {
    const ticket = await api.post<ManualTicket>('/invoices/manual-upload', body);
    await putWithProgress(
      { uploadUrl: ticket.uploadUrl, method: 'PUT', headers: ticket.headers },
      file,
      onProgress,
    );
    await api.post('/invoices/manual-upload', { ...body, key: ticket.key });
  });

/** POST to an upload call: a ticket for one captured document, in the page's batch. */
export const useUploadTicket = (call: UploadCall) =>
  useEndpoint((api, body: { fileName: string; contentType: string; size: number; batchId?: string }) =>
    api.post<UploadTicket>(UPLOAD_CALLS[call], body),
  );

/** The bulk calls of the queues; each makes every invoice read stale. */
export function useBulkCalls() {
  return {
    hold: invoiceWrite((api, ids: string[], hold: boolean) => bulk(api).hold(ids, hold)),
    tag: invoiceWrite((api, ids: string[], tags: string[]) => bulk(api).tag(ids, tags)),
    complete: invoiceWrite((api, ids: string[]) => bulk(api).complete(ids)),
    revalidate: invoiceWrite((api, ids: string[]) => bulk(api).revalidate(ids)),
    force: invoiceWrite((api, ids: string[]) => bulk(api).force(ids)),
    remove: invoiceWrite((api, ids: string[]) => bulk(api).remove(ids)),
    assign: invoiceWrite((api, ids: string[], userSub: string | null) => bulk(api).assign(ids, userSub)),
  };
}

/** GET /invoices?accountId=…: an account's invoices or credit notes, with the deleted ones on request. */
export const useAccountInvoices = <T extends InvoiceView>(
  accountId: string,
  kind: Kind,
  withDeleted: boolean,
) =>
  useSWR<ListPage<T>>(invoiceKeys.ofAccount(accountId, kind === 'credit-notes', withDeleted), {
    keepPreviousData: true,
  });

/** GET /invoice-validation/invoices: a page of captured documents, newest first. */
export const useCaptures = (page: number, size: number) =>
  useSWR<ListPage<CaptureItem>>(invoiceKeys.captures(page, size), { keepPreviousData: true });

/** GET /invoice-validation/search?query=… once the query is long enough. */
export const useValidationSearch = (query: string, minChars: number) =>
  useSWR<ListPage<ValidationItem>>(query.length >= minChars ? invoiceKeys.search(query) : null, {
    keepPreviousData: true,
  });

/** GET /accounts/search?query=…: accounts to link a bill to. */
export const useAccountSearch = <T>(query: string, minChars: number) =>
  useSWR<ListPage<T>>(
    query.length >= minChars ? `/accounts/search?query=${encodeURIComponent(query)}&limit=10` : null,
  );
