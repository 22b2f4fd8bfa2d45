/** Answers of the automation calls (`/automations…`, `/automation-runs…`, `/automation/templates`), as the browser reads them. */

export type AutomationRunStatus = 'pending' | 'running' | 'retrying' | 'succeeded' | 'failed';

export type TemplateId = 'portal-bills' | 'meter-data' | 'folder-import' | 'data-request';

export type RequestKind = 'readings' | 'bill' | 'readings-or-bill';

export type Schedule = 'manual' | 'daily' | 'weekly' | 'monthly';

export interface AutomationTemplate {
  _id: TemplateId;
  name: string;
  description: string;
  needs: 'bill-portal' | 'meter-data' | 'folder' | 'contact';
}

export interface Automation {
  _id: string;
  name: string;
  templateId: TemplateId;
  supplierId?: string;
  schedule: Schedule;
  enabled: boolean;
  folderFile?: { fileName: string; at: string };
  contactEmail?: string;
  lastRunStatus?: AutomationRunStatus;
  lastRunAt?: string;
}

export interface AutomationRun {
  _id: string;
  automationId: string;
  automationName: string;
  templateId: TemplateId;
  status: AutomationRunStatus;
  trigger: 'manual' | 'schedule';
  counts: { listed: number; fetched: number; skipped: number; failed: number };
  attempts: number;
  attachment?: { fileName: string };
  errorCode?: string;
  startedAt?: string;
  finishedAt?: string;
  createdAt: string;
}

/** GET /automation/error-codes: the codes a run may fail with, and what each means. */
export interface AutomationErrorCodes {
  codes: string[];
  errorCodeMap: Record<string, string>;
}

/** POST /automation/upload-url: where to PUT a file for an automation, and the name it is kept under. */
export interface AutomationUploadTicket {
  url: string;
  fileName: string;
}
