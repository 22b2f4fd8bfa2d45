import { sendToQueue } from '../core/adapters/queue.ts';
import { conflict } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { findSupplier } from '../suppliers/index.ts';
import {
  type Automation,
  type AutomationRun,
  changeAutomation,
  changeAutomationRun,
  companyAutomations,
  createAutomationRun,
  removeAutomationRun,
} from './automation-repository.ts';
import { AUTOMATION_ERROR_CODES, templateOf } from './automation-templates.ts';
import { adapterFor } from './connector-adapters.ts';
import { startRun } from './run-start.ts';

/**
 * Records a run of the automation and queues its work: a connector run for portal bills and meter data
 * (which tells the automation run when it ends), or the run itself for a dropped file or a data request.
 */
export async function startAutomationRun(
  companyId: string,
  automation: Automation,
  trigger: AutomationRun['trigger'],
  createdBy: string,
  log: Logger,
): Promise<AutomationRun> {
  if (!automation.enabled) throw conflict('This automation is switched off.');
  const template = templateOf(automation.templateId);
  if (!template) throw conflict('This automation has no template.');
  const now = new Date().toISOString();
  const run: AutomationRun = {
    _id: newId(),
    companyId,
    automationId: automation._id,
    automationName: automation.name,
    templateId: template._id,
    status: 'pending',
    trigger,
    counts: { listed: 0, fetched: 0, skipped: 0, failed: 0 },
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    createdBy,
  };
  if (template.needs === 'folder' || template.needs === 'contact') {
    if (template.needs === 'folder' && !automation.folderFile)
      throw conflict(AUTOMATION_ERROR_CODES['no-file']);
    if (template.needs === 'contact' && !automation.contactEmail)
      throw conflict(AUTOMATION_ERROR_CODES['no-contact']);
    await createAutomationRun(run);
    await sendToQueue('scraper', [{ companyId, automationRunId: run._id }]);
  } else {
    if (!automation.supplierId) throw conflict(AUTOMATION_ERROR_CODES['no-supplier']);
    const supplier = await findSupplier(automation.supplierId);
    const adapter = supplier ? adapterFor(supplier.name) : undefined;
    if (!adapter || adapter.kind !== template.needs) {
      throw conflict(
        template.needs === 'bill-portal'
          ? "This supplier's connector fetches no bills."
          : "This supplier's connector fetches no meter data.",
      );
    }
    // Recorded first, so the connector run can find it however soon it ends; removed if it cannot start.
    await createAutomationRun(run);
    try {
      const scraperRun = await startRun(companyId, automation.supplierId, trigger, createdBy, log, run._id);
      run.scraperRunId = scraperRun._id;
      await changeAutomationRun(companyId, run._id, (r) => ({ ...r, scraperRunId: scraperRun._id }));
    } catch (err) {
      await removeAutomationRun(companyId, run._id);
      throw err;
    }
  }
  await changeAutomation(companyId, automation._id, (a) => ({
    ...a,
    lastRunId: run._id,
    lastRunStatus: 'pending',
    lastRunAt: now,
  }));
  return run;
}

/** Whether a scheduled automation is due at the daily sweep of `day`: weekly on Mondays, monthly on the 1st. */
export function dueOn(automation: Automation, day: Date): boolean {
  if (!automation.enabled) return false;
  if (automation.schedule === 'daily') return true;
  if (automation.schedule === 'weekly') return day.getUTCDay() === 1;
  if (automation.schedule === 'monthly') return day.getUTCDate() === 1;
  return false;
}

/** Starts every automation of the company due today; one that cannot start is logged and passed over. */
export async function startDueAutomations(companyId: string, day: Date, log: Logger): Promise<number> {
  let started = 0;
  for (const automation of await companyAutomations(companyId)) {
    if (!dueOn(automation, day)) continue;
    const owner = automation.ownerSub ?? automation.createdBy ?? 'system';
    await startAutomationRun(companyId, automation, 'schedule', owner, log).then(
      () => started++,
      (err: unknown) =>
        log.info('scheduled automation not started', { companyId, id: automation._id, why: String(err) }),
    );
  }
  return started;
}
