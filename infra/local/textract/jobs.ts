import { randomBytes } from 'node:crypto';
import type { Block, ExpenseDocument } from '../../../shared/capture/textract.ts';
import { TextractError } from './errors.ts';

export type JobKind = 'text' | 'analysis' | 'expense';

export interface JobResult {
  pages: number;
  ocr: boolean;
  /** Blocks for text detection and analysis, expense documents for expense analysis. */
  items: Block[] | ExpenseDocument[];
}

export interface Job {
  id: string;
  kind: JobKind;
  status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';
  result?: JobResult;
  statusMessage?: string;
  startedAt: number;
  finishedAt?: number;
}

/** Finished jobs beyond this many are forgotten oldest first (Textract keeps results for 7 days). */
const MAX_KEPT = 1000;

/** At most `concurrency` tasks at once; the rest wait their turn in order. */
export function limiter(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < concurrency) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export interface JobStore {
  /** A new job, or the one an earlier Start call with the same ClientRequestToken made. */
  start(kind: JobKind, token: string | undefined, run: () => Promise<JobResult>): Job;
  get(kind: JobKind, id: string): Job;
}

export function jobStore(onFailure: (job: Job, err: unknown) => void): JobStore {
  const jobs = new Map<string, Job>();
  const byToken = new Map<string, string>();

  const forgetOld = () => {
    if (jobs.size <= MAX_KEPT) return;
    for (const [id, job] of jobs) {
      if (jobs.size <= MAX_KEPT) break;
      if (job.status === 'IN_PROGRESS') continue;
      jobs.delete(id);
    }
    for (const [token, id] of byToken) if (!jobs.has(id)) byToken.delete(token);
  };

  return {
    start(kind, token, run) {
      const tokenKey = token ? `${kind}:${token}` : undefined;
      const earlier = tokenKey ? jobs.get(byToken.get(tokenKey) ?? '') : undefined;
      if (earlier) return earlier;
      const job: Job = {
        id: randomBytes(32).toString('hex'),
        kind,
        status: 'IN_PROGRESS',
        startedAt: Date.now(),
      };
      jobs.set(job.id, job);
      if (tokenKey) byToken.set(tokenKey, job.id);
      forgetOld();
      run().then(
        (result) => {
          job.result = result;
          job.status = 'SUCCEEDED';
          job.finishedAt = Date.now();
        },
        (err: unknown) => {
          job.status = 'FAILED';
          job.statusMessage =
            err instanceof TextractError && err.type !== 'InternalServerError'
              ? err.message
              : 'Internal error while processing the document';
          job.finishedAt = Date.now();
          onFailure(job, err);
        },
      );
      return job;
    },
    get(kind, id) {
      const job = jobs.get(id);
      // A job id of another kind of job is as unknown to this Get operation as a made-up one.
      if (!job || job.kind !== kind) {
        throw new TextractError('InvalidJobIdException', `An invalid job identifier was passed: ${id}`);
      }
      return job;
    },
  };
}
