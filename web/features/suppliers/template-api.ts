import useSWR from 'swr';
import type { ExtractedValue, Template } from '../../../shared/capture/model.ts';
import type { TEMPLATE_VALUE_FORMAT } from '../../../shared/data/template-value-format.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type {
  InvoiceKeyOption,
  InvoicePreview,
  PreviewJob,
  SampleTicket,
} from '../../../shared/schemas/responses/templates.ts';
import type { ApiClient } from '../../lib/api-client.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import { putWithProgress } from '../../lib/upload.ts';

export type {
  InvoiceKeyOption,
  InvoicePreview,
  PreviewJob,
  PreviewPage,
  PreviewText,
  SampleTicket,
} from '../../../shared/schemas/responses/templates.ts';

import type { DataList } from '../../../shared/schemas/responses/common.ts';
import type { SampleLink } from '../../../shared/schemas/responses/templates.ts';

/** The template calls' failures as the editor words them (02 §8), when the server gives no reason. */
export const TEMPLATE_MESSAGES = {
  get: 'There was a problem getting the template.',
  update: 'There was a problem updating template.',
  create: 'There was a problem creating template.',
  remove: 'There was a problem deleting template.',
  invoiceKeys: 'There was a problem getting invoice keys.',
  analysis: 'There was a problem getting invoice analysis.',
  versionRules: 'There was a problem saving version rules.',
  supplierRules: 'There was a problem saving supplier rules.',
  pages: 'There was a problem saving pages.',
  bounds: 'There was a problem saving bounds.',
  addValue: 'There was a problem adding the value.',
  updateValue: 'There was a problem updating the value.',
  deleteValue: 'There was a problem deleting the value.',
  addRate: 'There was a problem adding the rate.',
  updateRate: 'There was a problem updating the rate.',
  deleteRate: 'There was a problem deleting the rate.',
  upload: 'There was a problem uploading the sample.',
} as const;

/** The server's own words for a refusal it explains (a bound still in use), else the editor's message. */
export function problemOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    const fields = Object.entries(error.formMessages ?? {});
    if (fields.length > 0 && error.message === 'Form validation error')
      return fields
        .map(([field, message]) => (field === '_form' ? message : `${field}: ${message}`))
        .join(' ');
    return error.message || fallback;
  }
  return fallback || MESSAGES.submitProblem;
}

export type ValueFormats = typeof TEMPLATE_VALUE_FORMAT;

export const templateKeys = {
  forSupplier: (supplierId: string, type: string) =>
    `/templates?supplierId=${supplierId}&type=${type}&limit=1`,
  template: (id: string) => `/templates/${id}`,
  sample: (id: string) => `/templates/${id}/sample`,
  invoiceKeys: '/templates/invoice-keys',
  valueFormat: '/util/template-value-format',
} as const;

export const isTemplateKey = (key: unknown) => typeof key === 'string' && key.startsWith('/templates');

export const useSupplierTemplate = (supplierId: string, type: string) =>
  useSWR<ListAnswer<Template>>(templateKeys.forSupplier(supplierId, type));

export const useTemplate = (id: string | undefined) =>
  useSWR<Template>(id ? templateKeys.template(id) : null);

export const useInvoiceKeys = () =>
  useSWR<DataList<InvoiceKeyOption>>(templateKeys.invoiceKeys, { revalidateOnFocus: false });

export const useValueFormats = () =>
  useSWR<ValueFormats>(templateKeys.valueFormat, { revalidateOnFocus: false });

/** The sample's link lasts 15 minutes: fetched again well before then, and whenever the sample changes. */
export const useSampleUrl = (template: Template | undefined) =>
  useSWR<SampleLink>(
    template?.sampleKey
      ? `${templateKeys.sample(template._id)}?for=${encodeURIComponent(template.sampleKey)}`
      : null,
    { revalidateOnFocus: false, refreshInterval: 10 * 60_000 },
  );

/** An extracted value as the preview shows it: its normalised value, or a dash when nothing was read. */
export function shownValue(v: ExtractedValue | undefined): string {
  if (!v || v.value === null || v.value === undefined) return '—';
  if (typeof v.value === 'boolean') return v.value ? 'Yes' : 'No';
  return String(v.value);
}

/** Every template read: a change to one part shows in the template, its list and its preview. */
const TEMPLATE_READS = [(key: string) => isTemplateKey(key)];
const templateWrite = <A extends unknown[], R>(call: (api: ApiClient, ...args: A) => Promise<R>) =>
  useEndpoint(call, () => TEMPLATE_READS);

/** POST /templates */
export const useCreateTemplate = () =>
  templateWrite((api, body: { supplierId: string; type: string; name: string }) =>
    api.post('/templates', body),
  );

/** PATCH /templates/{id} with its status */
export const useSetTemplateStatus = () =>
  templateWrite((api, id: string, status: Template['status']) => api.patch(`/templates/${id}`, { status }));

/** DELETE /templates/{id} */
export const useDeleteTemplate = () => templateWrite((api, id: string) => api.del(`/templates/${id}`));

/** POST /templates/{id}/preview: starts reading the sample; the job is then polled. */
export const useStartPreview = () =>
  useEndpoint((api, id: string) => api.post<PreviewJob>(`/templates/${id}/preview`));

/** PUT /templates/{id}/bounds: the whole list of bounds. */
export const useSetBounds = (id: string) =>
  templateWrite((api, bounds: readonly unknown[]) => api.put(`/templates/${id}/bounds`, bounds));

/** PUT /templates/{id}/versions: the whole list of versions. */
export const useSetVersions = (id: string) =>
  templateWrite((api, versions: readonly unknown[]) => api.put(`/templates/${id}/versions`, versions));

/** PUT /templates/{id}/supplier-rules */
export const useSetSupplierRules = (id: string) =>
  templateWrite((api, rules: readonly unknown[]) => api.put(`/templates/${id}/supplier-rules`, rules));

/** PUT /templates/{id}/version-rules */
export const useSetVersionRules = (id: string) =>
  templateWrite((api, rules: readonly unknown[]) => api.put(`/templates/${id}/version-rules`, rules));

/** POST /templates/{id}/values, or PATCH /templates/{id}/values/{valueId} */
export const useSaveTemplateValue = (id: string) =>
  templateWrite((api, body: Record<string, unknown>, valueId?: string) =>
    valueId
      ? api.patch(`/templates/${id}/values/${valueId}`, body)
      : api.post(`/templates/${id}/values`, body),
  );

/** POST /templates/{id}/rates, or PATCH /templates/{id}/rates/{rateId} */
export const useSaveTemplateRate = (id: string) =>
  templateWrite((api, body: Record<string, unknown>, rateId?: string) =>
    rateId ? api.patch(`/templates/${id}/rates/${rateId}`, body) : api.post(`/templates/${id}/rates`, body),
  );

/** DELETE /templates/{id}/values/{valueId} */
export const useDeleteTemplateValue = (id: string) =>
  templateWrite((api, valueId: string) => api.del(`/templates/${id}/values/${valueId}`));

/** DELETE /templates/{id}/rates/{rateId} */
export const useDeleteTemplateRate = (id: string) =>
  templateWrite((api, rateId: string) => api.del(`/templates/${id}/rates/${rateId}`));

/** POST /templates/{id}/sample for a ticket, the PUT, then POST /templates/{id}/sample with its key. */
export const useUploadSample = (id: string) =>
  templateWrite(async (api, file: File, onProgress: (percent: number) => void) => {
    const target = await api.post<SampleTicket>(`/templates/${id}/sample`, {
      fileName: file.name,
      size: file.size,
    });
    await putWithProgress({ ...target, method: 'PUT' }, file, onProgress);
    await api.post(`/templates/${id}/sample`, { key: target.key });
  });

/** GET /suppliers/{id}/invoice-preview for a started job, polled while it runs. */
export const useInvoicePreviewJob = (key: string | null) =>
  useSWR<InvoicePreview>(key, {
    keepPreviousData: true,
    revalidateOnFocus: false,
    refreshInterval: (latest) => (latest?.status === 'running' ? 3000 : 0),
  });
