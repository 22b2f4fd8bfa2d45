import { useCallback } from 'react';
import useSWR from 'swr';
import type {
  IntensityMetric,
  ReportFormat,
  ReportScopeType,
  SystemTemplate,
  SystemTemplateId,
} from '../../../shared/reports/report-templates.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type {
  CustomTemplateView,
  RecipientChoices,
  ReportView,
  ScheduleView,
  TemplatePreview,
} from '../../../shared/schemas/responses/reports.ts';
import { useEndpoint, useRevalidate } from '../../lib/endpoint.ts';

export type {
  CustomSectionBody,
  CustomTemplateView,
  PreviewDocument,
  RecipientChoice,
  ReportView,
  ScheduleView,
  TemplatePreview,
} from '../../../shared/schemas/responses/reports.ts';

import type { AssetView } from '../../../shared/schemas/responses/assets.ts';
import type { FileDownload } from '../../../shared/schemas/responses/common.ts';
import type { AssetGroup } from '../../../shared/schemas/responses/portfolios.ts';
import type { ReportSent, ScheduleSendWindow } from '../../../shared/schemas/responses/reports.ts';

export interface ReportRequestBody {
  templateId: SystemTemplateId;
  scopeType: ReportScopeType;
  scopeId?: string;
  startDate: string;
  endDate: string;
  format: ReportFormat;
  intensityMetric?: IntensityMetric;
  intensityValue?: string;
  intensityPreviousValue?: string;
}

/** The SWR keys of the report pages; the worker's live messages name `/reports`, which covers them. */
export const reportKeys = {
  templates: '/report-templates/system',
  history: '/reports?$sort=-createdAt&limit=100',
  ofScope: (scopeId: string) => `/reports?$sort=-createdAt&limit=50&scopeId=${scopeId}`,
  portfolios: '/users/me/asset-groups?limit=1000',
  sites: '/assets?limit=1000',
  site: (id: string) => `/assets/${id}`,
} as const;

const isReportList = (key: string) => key.startsWith('/reports?');

/** GET /reports/{id}: one report, its state kept live by the worker's messages. */
export const useReport = (id: string) => useSWR<ReportView>(id ? `/reports/${id}` : null);

/** GET /reports/{id}/document: the report's sections, charts and tables as data. */
export const useReportDocument = (id: string) =>
  useSWR<TemplatePreview>(id ? `/reports/${id}/document` : null);

export const useSystemTemplates = () =>
  useSWR<Pick<ListAnswer<SystemTemplate>, 'data'>>(reportKeys.templates);
export const useReportHistory = () => useSWR<ListAnswer<ReportView>>(reportKeys.history);
/** The reports of one site or portfolio, newest first. */
export const useScopeReports = (scopeId: string) =>
  useSWR<ListAnswer<ReportView>>(reportKeys.ofScope(scopeId));
export const usePortfolioChoices = () =>
  useSWR<ListAnswer<Pick<AssetGroup, '_id' | 'name'>>>(reportKeys.portfolios);
export const useSiteChoices = () => useSWR<ListAnswer<Pick<AssetView, '_id' | 'siteName'>>>(reportKeys.sites);
export const useSiteName = (id: string) => useSWR<Pick<AssetView, '_id' | 'siteName'>>(reportKeys.site(id));

/** POST /reports/generate2: the report is queued; its row follows the build live. */
export const useGenerateReport = () =>
  useEndpoint(
    (api, body: ReportRequestBody) => api.post<ReportView>('/reports/generate2', body),
    () => [isReportList],
  );

/**
 * POST /reports/generate2 without asking the lists again: a page following one build shows it queued from
 * the answer first, where a quick build could be ready before the lists came back (`useRelistReports`).
 */
export const useQueueReport = () =>
  useEndpoint((api, body: ReportRequestBody) => api.post<ReportView>('/reports/generate2', body));

/** Asks every cached list of reports again. */
export function useRelistReports(): () => Promise<void> {
  const revalidate = useRevalidate();
  return useCallback(() => revalidate(isReportList), [revalidate]);
}

/** POST /reports/{id}/regenerate */
export const useRegenerateReport = () =>
  useEndpoint(
    (api, id: string) => api.post<ReportView>(`/reports/${id}/regenerate`, {}),
    () => [isReportList],
  );

/** GET /reports/{id}/download: a link to the file that works for a few minutes. */
export const useReportLink = () =>
  useEndpoint((api, id: string) => api.get<FileDownload>(`/reports/${id}/download`));

/** A scheduled report as its page lists it. */
export type ScheduleBody = Omit<ScheduleView, '_id' | 'nextRunAt' | 'lastRunAt' | 'lastStatus' | 'lastError'>;

const SCHEDULES_KEY = '/scheduled-reports?limit=100';
const isScheduleList = (key: string) => key.startsWith('/scheduled-reports?');

export const useSchedules = () => useSWR<ListAnswer<ScheduleView>>(SCHEDULES_KEY);

/** GET /scheduled-reports/recipients: nothing is asked until a portfolio or site is chosen. */
export const useRecipientChoices = (scopeType: ReportScopeType, scopeId: string) =>
  useSWR<RecipientChoices>(
    scopeType === 'company' || scopeId
      ? `/scheduled-reports/recipients?scopeType=${scopeType}${scopeType === 'company' ? '' : `&scopeId=${encodeURIComponent(scopeId)}`}`
      : null,
  );

/** POST /scheduled-reports */
export const useCreateSchedule = () =>
  useEndpoint(
    (api, body: ScheduleBody) => api.post<ScheduleView>('/scheduled-reports', body),
    () => [isScheduleList],
  );

/** PATCH /scheduled-reports/{id}: pausing and resuming among the rest. */
export const useUpdateSchedule = () =>
  useEndpoint(
    (api, id: string, body: Partial<ScheduleBody>) =>
      api.patch<ScheduleView>(`/scheduled-reports/${id}`, body),
    () => [isScheduleList],
  );

/** DELETE /scheduled-reports/{id} */
export const useDeleteSchedule = () =>
  useEndpoint(
    (api, id: string) => api.del<ScheduleView>(`/scheduled-reports/${id}`),
    () => [isScheduleList],
  );

/** POST /scheduled-reports/{id}/send: a run now, for the period just ended. */
export const useSendScheduleNow = () =>
  useEndpoint(
    (api, id: string) => api.post<ScheduleSendWindow>(`/scheduled-reports/${id}/send`, {}),
    () => [isReportList],
  );

/** POST /reports/{id}/send: the report mailed, attached or linked. */
export const useSendReport = () =>
  useEndpoint((api, id: string, recipients: string[]) =>
    api.post<ReportSent>(`/reports/${id}/send`, { recipients }),
  );

/** A company's own report template, as the builder edits it. */
export type CustomTemplateBody = Omit<CustomTemplateView, '_id'>;

// The generic list sorts only by when an item was made; the pages sort by name themselves.
const CUSTOM_TEMPLATES_KEY = '/report-templates?limit=100&$sort=-createdAt';
const isTemplateList = (key: string) => key.startsWith('/report-templates?');

export const useCustomTemplates = () => useSWR<ListAnswer<CustomTemplateView>>(CUSTOM_TEMPLATES_KEY);

/** POST /report-templates */
export const useCreateTemplate = () =>
  useEndpoint(
    (api, body: CustomTemplateBody) => api.post<CustomTemplateView>('/report-templates', body),
    () => [isTemplateList],
  );

/** PATCH /report-templates/{id} */
export const useUpdateTemplate = () =>
  useEndpoint(
    (api, id: string, body: CustomTemplateBody) =>
      api.patch<CustomTemplateView>(`/report-templates/${id}`, body),
    () => [isTemplateList],
  );

/** DELETE /report-templates/{id} */
export const useDeleteTemplate = () =>
  useEndpoint(
    (api, id: string) => api.del<CustomTemplateView>(`/report-templates/${id}`),
    () => [isTemplateList],
  );

/** POST /report-templates/preview: the template as built now, saved or not. */
export const usePreviewTemplate = () =>
  useEndpoint((api, body: CustomTemplateBody, window: { startDate?: string; endDate?: string }) =>
    api.post<TemplatePreview>('/report-templates/preview', {
      template: body,
      ...window,
    }),
  );

/** POST /reports/generate2 of a company template: its scope and period unless given. */
export const useGenerateCustomReport = () =>
  useEndpoint(
    (api, body: { reportTemplateId: string; format: ReportFormat; startDate?: string; endDate?: string }) =>
      api.post<ReportView>('/reports/generate2', { templateId: 'custom', ...body }),
    () => [isReportList],
  );
