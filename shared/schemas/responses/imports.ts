import type { ImportMapping, ImportType } from '../../imports/import-mapping.ts';
import type { ImportStatus } from '../../imports/import-types.ts';

/** Answers of the meter-data import calls (`/imports…`), as the browser reads them. */

export type { ImportStatus } from '../../imports/import-types.ts';

export type Outcome = 'create' | 'update' | 'unchanged' | 'error';

export interface OutcomeTotals {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  error: number;
}

/** An import as GET /imports/{id} answers it. */
export interface ImportState {
  _id: string;
  type: ImportType;
  fileName?: string;
  status: ImportStatus;
  progress: number;
  fileRead: boolean;
  error?: string;
  preview?: OutcomeTotals;
  results?: OutcomeTotals;
  rollback?: { restored: number; removed: number; kept: number };
  createdAt: string;
}

export interface ImportInfo {
  id: string;
  type: ImportType;
  status: ImportStatus;
  fileRead: boolean;
  error?: string;
  fileKind?: 'csv' | 'xlsx';
  encoding?: string;
  sheetNames?: string[];
  sheet?: string;
  columns: { index: number; name: string }[];
  samples: string[][];
  suggested?: ImportMapping;
  mapping?: ImportMapping;
  templates: { _id: string; name: string }[];
}

export interface RowOutcome {
  row: number;
  outcome: Outcome;
  meter?: string;
  field?: string;
  reason?: string;
  /** The fields an update changes. */
  changes?: string[];
}

export interface PreviewAnswer {
  id: string;
  totals: OutcomeTotals;
  rows: RowOutcome[];
  pages: number;
}

export interface UploadTicket {
  id: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/** GET /imports/{id}/items: a page of the rows' outcomes at one stage. */
export interface ImportItemsPage {
  rows: RowOutcome[];
  pages: number;
}

/** GET /imports/{id}/failed-rows: the rows that failed, as a CSV file to correct. */
export interface FailedRows {
  fileName: string;
  contentType: 'text/csv';
  csv: string;
}
