/**
 * | pattern | key condition | index |
 * |---|---|---|
 * | the factor set a company's figures are in | `pk = C#{companyId}#factor-set`, `sk = current` | table |
 * | record a restatement's factor set | `pk = C#{companyId}#factor-set`, `sk = current` | table |
 * | one restatement job | `pk = C#{companyId}#restatement`, `sk = {jobId}` | table |
 * | record a job, or move it on unless it is done | `pk = C#{companyId}#restatement`, `sk = {jobId}` (conditional put) | table |
 */
import type {
  Restatement,
  RestatementJobStatus,
  RestatementJobView,
  YearRestated,
} from '../../shared/schemas/responses/factor-sets.ts';
import { getRaw, putRaw, putRawIf } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

/** The last restatement of a company's emissions: the edition its figures are in since, who, when. */
export interface FactorSetState {
  factorSet: string;
  restatedAt: string;
  restatedBy: string;
}

const CURRENT = 'current';
const pkOf = (companyId: string) => keys.collection({ companyId }, 'factor-set');
const jobPkOf = (companyId: string) => keys.collection({ companyId }, 'restatement');

export async function getFactorSetState(companyId: string): Promise<FactorSetState | undefined> {
  const raw = await getRaw(pkOf(companyId), CURRENT);
  if (!raw || typeof raw.factorSet !== 'string') return undefined;
  return {
    factorSet: raw.factorSet,
    restatedAt: String(raw.restatedAt ?? ''),
    restatedBy: String(raw.restatedBy ?? ''),
  };
}

export async function putFactorSetState(companyId: string, state: FactorSetState): Promise<void> {
  await putRaw({ pk: pkOf(companyId), sk: CURRENT, _id: CURRENT, companyId, ...state });
}

export type { Restatement, RestatementJobStatus, YearRestated };

/** A restatement asked for and carried out by the worker: its progress, and what it changed once done. */
export interface RestatementJob extends RestatementJobView {
  companyId: string;
}

const STATUSES = new Set<string>(['queued', 'running', 'done', 'failed']);

function toJob(raw: Record<string, unknown>): RestatementJob | undefined {
  if (typeof raw._id !== 'string' || typeof raw.factorSet !== 'string') return undefined;
  const status = String(raw.status);
  const result = raw.result as Restatement | undefined;
  return {
    jobId: raw._id,
    companyId: String(raw.companyId ?? ''),
    factorSet: raw.factorSet,
    status: STATUSES.has(status) ? (status as RestatementJobStatus) : 'failed',
    progress: typeof raw.progress === 'number' ? raw.progress : 0,
    requestedBy: String(raw.requestedBy ?? ''),
    requestedAt: String(raw.requestedAt ?? ''),
    ...(typeof raw.finishedAt === 'string' ? { finishedAt: raw.finishedAt } : {}),
    ...(result && typeof result === 'object' ? { result } : {}),
    ...(typeof raw.error === 'string' ? { error: raw.error } : {}),
  };
}

export async function getRestatementJob(
  companyId: string,
  jobId: string,
): Promise<RestatementJob | undefined> {
  const raw = await getRaw(jobPkOf(companyId), jobId);
  return raw ? toJob(raw) : undefined;
}

/** Records a new job; answers false when one of that id exists. */
export async function createRestatementJob(job: RestatementJob): Promise<boolean> {
  return putRawIf(
    { pk: jobPkOf(job.companyId), sk: job.jobId, _id: job.jobId, ...job },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );
}

/**
 * Writes the job as given unless the stored one is done already: a job is done once, so a delivery of
 * its message again, or a slower copy of it, cannot log or announce its result a second time. Answers
 * whether it was written.
 */
export async function putRestatementJobUnlessDone(job: RestatementJob): Promise<boolean> {
  return putRawIf(
    { pk: jobPkOf(job.companyId), sk: job.jobId, _id: job.jobId, ...job },
    {
      ConditionExpression: 'attribute_exists(pk) AND #status <> :done',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'done' },
    },
  );
}
