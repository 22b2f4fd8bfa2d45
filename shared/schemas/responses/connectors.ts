/** Answers of the connector calls (`/scraper-runs…`), as the browser reads them. */

export type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed';

export interface RunCounts {
  listed: number;
  fetched: number;
  skipped: number;
  failed: number;
  intervals: number;
}

export interface ScraperRun {
  _id: string;
  supplierId: string;
  supplierName: string;
  status: RunStatus;
  trigger: 'manual' | 'schedule';
  counts: RunCounts;
  logs: { _id: string; step: string; status: string; lines: number; at: string }[];
  error?: { type: string; message: string };
  startedAt?: string;
  finishedAt?: string;
  createdAt: string;
}

export interface Connector {
  supplierId: string;
  supplierName: string;
  adapter: string | null;
  username: string;
  enabled: boolean;
  passwordSet: boolean;
  status: 'ready' | 'off' | 'wrong-password';
  lastRun: ScraperRun | null;
}

/** GET /scraper-runs/{id}/logs/{logId}/download: a run's log as text. */
export interface RunLogFile {
  fileName: string;
  text: string;
}
