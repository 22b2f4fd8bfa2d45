import { findFactorSetEdition } from '../../shared/analytics/index.ts';
import type { RestatementMessage } from '../../shared/system/queue-messages.ts';
import { loadCaller } from '../core/access/caller-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import type { Logger } from '../core/lib/logger.ts';
import { announceCompanyFiguresChange } from './analytics-live.ts';
import {
  getRestatementJob,
  putFactorSetState,
  putRestatementJobUnlessDone,
  type RestatementJob,
} from './factor-set-repository.ts';
import { restateCompany, restatementMessage } from './factor-set-service.ts';

export const RESTATEMENT_PROGRESS = 'analytics.restatement';

/** Progress is told in steps of this many per cent: a company of thousands of meters sends a handful. */
const PROGRESS_STEP = 10;

/** Tells the company's open pages how the job is getting on: the factor-set panel asks for it again. */
async function announce(job: RestatementJob, log: Logger): Promise<void> {
  await publishToCompany(
    job.companyId,
    {
      type: RESTATEMENT_PROGRESS,
      keys: ['/analytics/factor-sets'],
      data: { jobId: job.jobId, status: job.status, progress: job.progress },
    },
    log,
  ).catch((err: unknown) => log.warn('restatement progress not announced', { error: String(err) }));
}

/**
 * Carries out one restatement job. Each meter month is rewritten only if it still holds the figure read
 * in the old factors, so a delivery of the message again (or a run after a crash) restates only what is
 * left and adds nothing twice to the roll-ups; a job already done is passed over, and only the run that
 * marks it done logs and announces the result.
 */
export async function runRestatement(message: RestatementMessage, log: Logger): Promise<void> {
  const { companyId, jobId } = message;
  const job = await getRestatementJob(companyId, jobId);
  if (!job) {
    log.info('restatement job gone before it ran', { jobId });
    return;
  }
  if (job.status === 'done') {
    log.info('restatement already done', { jobId });
    return;
  }
  const edition = findFactorSetEdition(job.factorSet);
  if (!edition) {
    const failed: RestatementJob = { ...job, status: 'failed', error: `No factor set ${job.factorSet}` };
    if (await putRestatementJobUnlessDone(failed)) await announce(failed, log);
    return;
  }
  let current: RestatementJob = { ...job, status: 'running', progress: 0 };
  if (!(await putRestatementJobUnlessDone(current))) return;
  await announce(current, log);
  let told = 0;
  const result = await restateCompany(companyId, jobId, edition, async (done, total) => {
    const progress = Math.floor((done / total) * 100);
    if (progress >= 100 || progress - told < PROGRESS_STEP) return;
    told = progress;
    current = { ...current, progress };
    if (await putRestatementJobUnlessDone(current)) await announce(current, log);
  });
  const finishedAt = new Date().toISOString();
  await putFactorSetState(companyId, {
    factorSet: edition.id,
    restatedAt: finishedAt,
    restatedBy: job.requestedBy,
  });
  const finished: RestatementJob = { ...current, status: 'done', progress: 100, finishedAt, result };
  if (!(await putRestatementJobUnlessDone(finished))) {
    log.info('restatement finished by another delivery', { jobId });
    return;
  }
  const caller = await loadCaller(job.requestedBy, [], { companyId });
  await writeActivity(caller, {
    type: 'restate',
    model: 'emissions',
    modelId: edition.id,
    message: restatementMessage(edition, result),
  });
  if (result.months > 0) await announceCompanyFiguresChange(companyId, log);
  await announce(finished, log);
}

/** After the message's last delivery failed: the job is marked failed, so the page stops waiting for it. */
export async function reportRestatementFailure(
  message: RestatementMessage,
  err: unknown,
  log: Logger,
): Promise<void> {
  const job = await getRestatementJob(message.companyId, message.jobId);
  if (!job || job.status === 'done') return;
  const failed: RestatementJob = {
    ...job,
    status: 'failed',
    error: 'The figures could not be restated; those already restated keep their new factors.',
  };
  log.error('restatement failed', { jobId: job.jobId, error: String(err) });
  if (await putRestatementJobUnlessDone(failed)) await announce(failed, log);
}
