import type { ImportMapping, ImportType } from '../../shared/imports/import-mapping.ts';
import type {
  ImportStatus,
  Outcome,
  OutcomeTotals,
  RowOutcome as RowOutcomeView,
} from '../../shared/schemas/responses/imports.ts';

export type { ImportStatus, Outcome, OutcomeTotals };

export interface ImportRecord {
  _id: string;
  companyId: string;
  type: ImportType;
  /** The type is read from the file's columns when it arrives (a file dropped with no type named). */
  typeFromFile?: boolean;
  importTemplateId?: string;
  fileName?: string;
  /** The one meter every row is for, when the file names none (an import made from a meter's page). */
  accountId?: string;
  /** The uploaded file's object key in the uploads bucket. */
  key: string;
  status: ImportStatus;
  /** 0 to 100 while an import or rollback runs. */
  progress: number;
  /** Whether the file has arrived and its header was read. */
  fileRead: boolean;
  error?: string;
  fileKind?: 'csv' | 'xlsx';
  encoding?: string;
  delimiter?: string;
  sheetNames?: string[];
  sheet?: string;
  header?: string[];
  headerRows?: number;
  samples?: string[][];
  suggested?: ImportMapping;
  mapping?: ImportMapping;
  /** Saved templates made for the same header. */
  templates?: { _id: string; name: string }[];
  preview?: OutcomeTotals;
  results?: OutcomeTotals;
  rollback?: { restored: number; removed: number; kept: number };
  /** How many pages of outcomes each stage wrote. */
  pages?: { preview?: number; import?: number; undo?: number; rollback?: number };
  /**
   * Set while an import writes: how many pages of its journal (what each month or day held before, kept
   * before anything is written) there are, and whether its roll-ups were added. A delivery that finds it
   * resumes a run that died rather than starting afresh. `round` counts the deliveries that found the
   * roll-ups added and had more months to write: each adds its roll-ups under a mark of its own. `lates`
   * counts the deliveries that found months changed since a dead run's roll-ups began to land, whose
   * changes each adds under a mark of its own beside the dead run's.
   */
  writing?: { journal: number; rollupsAdded?: boolean; round?: number; lates?: number };
  /**
   * Set while a rollback writes: its journal's pages (each month it is about to write and what the month
   * held) and whether its roll-ups were taken off, so a delivery after its worker died finishes the same
   * rollback rather than judging the dead run's writes as changed since.
   */
  rollingBack?: { journal: number; rollupsAdded?: boolean };
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  deleted?: boolean;
}

export interface RowOutcome extends RowOutcomeView {
  /** The row's cells, kept for failed rows so they can be downloaded, mended and uploaded again. */
  cells?: string[];
}

/**
 * A meter-month's figures as stored. Its emissions and their factor set are absent in journals and undo
 * entries written before they were kept; a restatement may have stated them in other factors than today's.
 */
export interface MonthHeld {
  consumption: number;
  cost: number;
  emissionsKg?: number;
  factorVersion?: string;
}

/** What an import changed in one meter-month or meter-day, so a rollback can put it back. */
export type UndoEntry =
  | {
      kind: 'month';
      accountId: string;
      month: string;
      before: MonthHeld | null;
      written: { consumption: number; cost: number };
      row: number;
      /** Its roll-ups are added: a run that added them all recorded so, and a later one has more to write. */
      added?: true;
      /** Found changed after a dead run's roll-ups began to land: its roll-ups go under that delivery's mark. */
      late?: number;
    }
  | {
      /** An item (site, entity, meter) the import created, by the row it came from. */
      kind: 'item';
      id: string;
      row: number;
    }
  | {
      /** An item the import updated: the fields it changed as they were, absent ones as null. */
      kind: 'update';
      id: string;
      /** The meter a contract belongs to. */
      accountId?: string;
      before: Record<string, unknown>;
      /** The item's updatedAt as the import wrote it: a later value means someone changed it since. */
      updatedAt: string;
      row: number;
    }
  | {
      kind: 'day';
      accountId: string;
      date: string;
      before: (number | null)[] | null;
      /** A digest of the values written: enough to tell whether the day still holds them. */
      written: string;
      row: number;
    };

export interface StoredTemplate {
  _id: string;
  companyId: string;
  name: string;
  type: ImportType;
  /** The normalised header it was made for: offered again when a file with the same header arrives. */
  headerKey: string;
  mapping: ImportMapping;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  deleted?: boolean;
}
