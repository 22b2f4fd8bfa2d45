/**
 * | pattern                              | key condition                                  | index |
 * | ------------------------------------ | ---------------------------------------------- | ----- |
 * | one report by id                     | pk = C#{companyId}#reports, sk = id            | table |
 * | record a report (must not exist)     | pk = C#{companyId}#reports, sk = id            | table |
 * | change a report's status and file    | pk = C#{companyId}#reports, sk = id (revision) | table |
 * | a page of a company's reports        | generic list of the declared collection        | table |
 *
 * The files themselves are in the reports bucket under `reports/{companyId}/{reportId}/`.
 */
import type { CustomTemplate } from '../../shared/reports/custom-templates.ts';
import type {
  IntensityMetric,
  ReportFormat,
  ReportScopeType,
  ReportStatus,
  ReportType,
} from '../../shared/reports/report-templates.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  putItem,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

export type Report = {
  name: string;
  type: ReportType;
  /** A company's own template it is built from, as it was when asked for: a later edit changes no report. */
  reportTemplateId?: string;
  template?: Pick<CustomTemplate, 'name' | 'description' | 'sections'>;
  status: ReportStatus;
  format: ReportFormat;
  scopeType: ReportScopeType;
  scopeId?: string;
  /** The sites it covers: who may read them may read it (none: company-wide users only). */
  assetIds: string[];
  startDate: string;
  endDate: string;
  intensityMetric?: IntensityMetric;
  intensityValue?: number;
  intensityPreviousValue?: number;
  /** Who asked: the report is built with what they may read. */
  requestedBy: string;
  requestedByName?: string;
  /** Builds asked for so far; a queued message names the one it is for. */
  generation: number;
  /** The build whose file is stored, once one is. */
  builtGeneration?: number;
  /** Per cent of the build done. */
  progress?: number;
  fileName?: string;
  sizeBytes?: number;
  pages?: number;
  factorSets?: string[];
  /** The report's key figures, as its first figures block shows them: the body of the mail that sends it. */
  headline?: { label: string; value: string }[];
  /** The scheduled report that made it, when one did. */
  scheduleId?: string;
  error?: string;
  completedAt?: string;
};

export type StoredReport = Stored<Report>;

export const reportsRef = (companyId: string): CollectionRef => declaredRef('reports', { companyId });

const REPORT_FIELDS = ['name', 'type', 'status', 'format', 'requestedBy', 'generation'] as const;

/** A report asked for here; an item of the collection written otherwise (an import, a client) is none. */
const toReport = (item: StoredItem): StoredReport | undefined =>
  REPORT_FIELDS.every((f) => item[f] !== undefined && item[f] !== null) && typeof item.generation === 'number'
    ? storedRecord<StoredReport>('report', item, REPORT_FIELDS)
    : undefined;

/** Where a build's file is stored: its own key, so a build done again overwrites it and no other. */
export const reportFileKey = (companyId: string, reportId: string, generation: number, fileName: string) =>
  `reports/${companyId}/${reportId}/${generation}/${fileName}`;

/** A live item of the company's reports, and the report it is when it was asked for here. */
export async function findReport(
  companyId: string,
  id: string,
): Promise<{ item: StoredItem; report?: StoredReport } | undefined> {
  const item = await getItem(reportsRef(companyId).pk, id);
  if (!item || item.deleted === true) return undefined;
  const report = toReport(item);
  return report ? { item, report } : { item };
}

export async function createReport(companyId: string, report: StoredReport): Promise<void> {
  await putItem(reportsRef(companyId), report, { mustNotExist: true });
}

/**
 * Changes a report by read, change and conditional write; `change` answers the fields to set, or
 * undefined to leave it. Answers the report as it then is, or undefined when there is none.
 */
export async function changeReport(
  companyId: string,
  id: string,
  change: (current: StoredReport) => Partial<Report> | undefined,
): Promise<{ report: StoredReport; written: boolean } | undefined> {
  const out = await changeItem(reportsRef(companyId), id, (item) => {
    const current = toReport(item);
    const fields = current && change(current);
    return fields ? { ...item, ...fields, updatedAt: new Date().toISOString() } : undefined;
  });
  const report = out && toReport(out.after);
  return out && report ? { report, written: out.written } : undefined;
}

// Reports are made by the generate calls, which add who asked and how far the build went.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    reports: StoredReport;
  }
}
