import useSWR from 'swr';
import type {
  Automation,
  AutomationRun,
  AutomationTemplate,
  RequestKind,
  Schedule,
  TemplateId,
} from '../../../shared/schemas/responses/automation.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { Supplier } from '../../../shared/schemas/responses/suppliers.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export type {
  Automation,
  AutomationRun,
  AutomationRunStatus,
  AutomationTemplate,
  RequestKind,
  Schedule,
  TemplateId,
} from '../../../shared/schemas/responses/automation.ts';

import type { AssetView } from '../../../shared/schemas/responses/assets.ts';
import type {
  AutomationErrorCodes,
  AutomationUploadTicket,
} from '../../../shared/schemas/responses/automation.ts';
import type { FileDownload } from '../../../shared/schemas/responses/common.ts';

/** An item of GET /suppliers, as the connector pickers use it. */
export type SupplierOption = Pick<Supplier, '_id' | 'name' | 'scraperEnabled'>;

/** The SWR keys of the automation pages; the worker's live updates name `/automation-runs…` and `/automations`. */
export const automationKeys = {
  automations: '/automations?limit=200',
  runs: '/automation-runs?limit=100&$sort=-_id',
  templates: '/automation/templates',
  errorCodes: '/automation-runs/error-codes',
  suppliers: '/suppliers?limit=1000&type=supplier',
  sites: '/assets?limit=500',
} as const;

export const useAutomations = () => useSWR<ListAnswer<Automation>>(automationKeys.automations);
export const useAutomationRuns = () => useSWR<ListAnswer<AutomationRun>>(automationKeys.runs);
export const useTemplates = () => useSWR<ListAnswer<AutomationTemplate>>(automationKeys.templates);
export const useErrorCodes = () => useSWR<AutomationErrorCodes>(automationKeys.errorCodes);
export const useSupplierOptions = () => useSWR<ListAnswer<SupplierOption>>(automationKeys.suppliers);
export const useSiteOptions = (wanted: boolean) =>
  useSWR<ListAnswer<Pick<AssetView, '_id' | 'siteName'>>>(wanted ? automationKeys.sites : null);

/** A dropped file's type, from its name when the browser gives none. */
const typeOfFile = (file: File) =>
  file.type ||
  (/\.csv$/i.test(file.name)
    ? 'text/csv'
    : /\.xlsx$/i.test(file.name)
      ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
      : 'application/pdf');

const READS = [keysUnder('/automations'), keysUnder('/automation-runs')];

export interface AutomationBody {
  name: string;
  templateId: TemplateId;
  supplierId?: string;
  schedule: Schedule;
  enabled?: boolean;
  contactEmail?: string;
  contactName?: string;
  assetId?: string;
  requestKind?: RequestKind;
}

/** POST /automations */
export const useCreateAutomation = () =>
  useEndpoint(
    (api, body: AutomationBody) => api.post<Automation>('/automations', body),
    () => READS,
  );

/** PATCH /automations/{id} */
export const useUpdateAutomation = () =>
  useEndpoint(
    (api, id: string, body: Partial<AutomationBody>) => api.patch<Automation>(`/automations/${id}`, body),
    () => READS,
  );

/** DELETE /automations/{id} */
export const useDeleteAutomation = () =>
  useEndpoint(
    (api, id: string) => api.del<unknown>(`/automations/${id}`),
    () => READS,
  );

/** POST /automation/{id}/run */
export const useRunAutomation = () =>
  useEndpoint(
    (api, id: string) => api.post<AutomationRun>(`/automation/${id}/run`),
    () => READS,
  );

/** POST /automation/upload-url, then the PUT into the automation's folder (no bearer token there). */
export const useDropFile = () =>
  useEndpoint(
    async (api, automationId: string, file: File) => {
      const contentType = typeOfFile(file);
      const ticket = await api.post<AutomationUploadTicket>('/automation/upload-url', {
        automationId,
        fileName: file.name,
        contentType,
        size: file.size,
      });
      const answer = await fetch(ticket.url, {
        method: 'PUT',
        headers: { 'Content-Type': contentType },
        body: file,
      });
      if (!answer.ok) throw new Error('There was a problem getting an upload URL.');
      return ticket;
    },
    () => READS,
  );

/** GET /automation-runs/{id}/attachment */
export const useRunAttachment = () =>
  useEndpoint((api, runId: string) => api.get<FileDownload>(`/automation-runs/${runId}/attachment`));
