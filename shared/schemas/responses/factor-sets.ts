/** Answers of the emission-factor edition calls (`/analytics/factor-sets…`), as the browser reads them. */

/** GET /analytics/factor-sets: the edition the company's figures are in, and those it may restate to. */
export interface FactorSets {
  current: { id: string; label: string; restatedAt?: string };
  /** `current`: the edition new figures are worked out in. */
  editions: { id: string; label: string; current?: boolean }[];
}

/** What a restatement changed: each year's emissions before and after (kg CO2e), and the months rewritten. */
export interface Restatement {
  factorSet: string;
  /** Account months whose emissions changed. */
  months: number;
  years: YearRestated[];
}

/** A year's emissions before and after a restatement, kg CO2e. */
export interface YearRestated {
  year: string;
  beforeKg: number;
  afterKg: number;
}

export type RestatementJobStatus = 'queued' | 'running' | 'done' | 'failed';

/** A restatement asked for: the worker moves it on, and the server's live messages say when it has. */
export interface RestatementJobView {
  jobId: string;
  factorSet: string;
  status: RestatementJobStatus;
  /** Per cent of the company's meters gone through. */
  progress: number;
  requestedBy: string;
  requestedAt: string;
  finishedAt?: string;
  result?: Restatement;
  error?: string;
}
