import type {
  CustomGrouping,
  CustomMeasure,
  CustomPeriod,
  CustomSectionKind,
} from '../../reports/custom-templates.ts';
import type { ReportDocument } from '../../reports/report-document.ts';
import type { ScheduleFrequency } from '../../reports/report-schedule.ts';
import type {
  ReportFormat,
  ReportScopeType,
  ReportStatus,
  ReportType,
  SystemTemplateId,
} from '../../reports/report-templates.ts';

/** Answers of the report calls (`/reports…`, `/scheduled-reports…`, `/report-templates…`), as the browser reads them. */

/** A report as the history lists it. */
export interface ReportView {
  _id: string;
  name: string;
  type: ReportType;
  status: ReportStatus;
  format: ReportFormat;
  scopeType: ReportScopeType;
  scopeId?: string;
  startDate: string;
  endDate: string;
  requestedBy: string;
  requestedByName?: string;
  createdAt: string;
  completedAt?: string;
  progress?: number;
  pages?: number;
  sizeBytes?: number;
  error?: string;
  builtGeneration?: number;
}

/** A report schedule (GET /scheduled-reports). */
export interface ScheduleView {
  _id: string;
  name?: string;
  templateId?: SystemTemplateId;
  /** A company's own template, sent instead of a system one. */
  reportTemplateId?: string;
  scopeType: ReportScopeType;
  scopeId?: string;
  format: ReportFormat;
  recipients: string[];
  frequency: ScheduleFrequency;
  dayOfWeek: number;
  dayOfMonth: number;
  month: number;
  time: string;
  timeZone: string;
  paused?: boolean;
  nextRunAt?: string;
  lastRunAt?: string;
  lastStatus?: 'sent' | 'failed';
  lastError?: string;
}

/** A member a schedule may be sent to: one who may read a report of its scope. */
export interface RecipientChoice {
  userSub: string;
  name: string;
  email: string;
}

/** GET /scheduled-reports/recipients */
export interface RecipientChoices {
  data: RecipientChoice[];
}

/** A company's own report template (GET /report-templates). */
export interface CustomTemplateView {
  _id: string;
  name: string;
  description?: string;
  scopeType: ReportScopeType;
  scopeId?: string;
  period: CustomPeriod;
  sections: CustomSectionBody[];
}

export type CustomSectionBody = {
  kind: CustomSectionKind;
  title: string;
  measure?: CustomMeasure;
  grouping?: CustomGrouping;
  text?: string;
};

/** The document a template gives, as the preview shows it (the logo left out). */
export type PreviewDocument = Omit<ReportDocument, 'logoPng' | 'dataDate'> & { dataDate: string };

/**
 * POST /report-templates/preview and GET /reports/{id}/document: the document as data, over the window it
 * was built for.
 */
export interface TemplatePreview {
  document: PreviewDocument;
  startDate: string;
  endDate: string;
}

/** POST /scheduled-reports/{id}/send: a run now, for the period just ended, and who it went to. */
export interface ScheduleSendWindow {
  startDate: string;
  endDate: string;
  recipients: string[];
}

/** POST /reports/{id}/send: how many were sent it, and whether the file went as an attachment. */
export interface ReportSent {
  reportId: string;
  recipients: string[];
  sent: number;
  attached: boolean;
  /** Set when the report went as a link rather than an attachment. */
  linkExpiresInSeconds?: number;
}
