import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { conflict, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { findSupplier } from '../suppliers/index.ts';
import { adapterFor } from './connector-adapters.ts';
import {
  createRun,
  getConnectorState,
  getSealedPassword,
  portalLogins,
  type RunCounts,
  type RunTrigger,
  runsOfSupplier,
  type ScraperRun,
} from './connector-repository.ts';

// Starting a run is all the API does with runs; the worker's fetching and parsing stay out of its bundle.

export const ZERO: RunCounts = { listed: 0, fetched: 0, skipped: 0, failed: 0, intervals: 0 };
const STALE_RUN_MS = 20 * 60 * 1000;

const runKeys = (runId: string) => ['/scraper-runs', `/scraper-runs/${runId}`, '/scraper-runs/connectors'];

export async function announce(run: ScraperRun, log: Logger): Promise<void> {
  await publishToCompany(
    run.companyId,
    {
      type: 'scraper-run.updated',
      keys: runKeys(run._id),
      data: { runId: run._id, supplierId: run.supplierId, status: run.status, counts: { ...run.counts } },
    },
    log,
  ).catch((err: unknown) => log.warn('live update failed', { error: String(err) }));
}

export /** Why a login cannot run now, or undefined when it can. */
async function refusal(companyId: string, supplierId: string): Promise<string | undefined> {
  const [logins, sealed, state] = await Promise.all([
    portalLogins(companyId),
    getSealedPassword(companyId, supplierId),
    getConnectorState(companyId, supplierId),
  ]);
  const login = logins[supplierId];
  if (!login) return 'There is no portal login for this supplier.';
  if (!login.enabled) return 'This portal login is switched off.';
  if (!sealed) return 'This portal login has no password yet.';
  if (state.blocked) return 'The portal refused the password at the last run; set it again to run.';
  return undefined;
}

/** Records a run and queues it. Refused while the same login has a run waiting or going. */
export async function startRun(
  companyId: string,
  supplierId: string,
  trigger: RunTrigger,
  createdBy: string,
  log: Logger,
  /** The automation run this connector run does the work of, told when it ends. */
  automationRunId?: string,
): Promise<ScraperRun> {
  const supplier = await findSupplier(supplierId);
  if (!supplier) throw notFound('There is no such supplier');
  const adapter = adapterFor(supplier.name);
  if (!adapter || supplier.scraperEnabled !== true) throw conflict('This supplier has no connector.');
  const why = await refusal(companyId, supplierId);
  if (why) throw conflict(why);
  const [latest] = await runsOfSupplier(companyId, supplierId, 1);
  // A run that has not moved for longer than the worker may live died with its last attempt.
  const stale = latest && Date.now() - Date.parse(latest.updatedAt) > STALE_RUN_MS;
  if (latest && !stale && (latest.status === 'pending' || latest.status === 'running'))
    throw conflict('A run of this portal login is already under way.');
  const now = new Date().toISOString();
  const run: ScraperRun = {
    _id: newId(),
    companyId,
    supplierId,
    supplierName: supplier.name,
    status: 'pending',
    trigger,
    counts: { ...ZERO },
    logs: [],
    createdAt: now,
    updatedAt: now,
    createdBy,
  };
  await createRun(run);
  await sendToQueue('scraper', [
    automationRunId ? { companyId, runId: run._id, automationRunId } : { companyId, runId: run._id },
  ]);
  await announce(run, log);
  return run;
}
