import { AUTOMATION_AREA } from '../../../shared/system/areas/automation.ts';
import {
  automationRunBrokeOff,
  beginAutomationRun,
  executeAutomationRun,
  finishFromConnectorRun,
} from '../../automation/automation-worker.ts';
import { executeRun, sweep } from '../../automation/scraper-service.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';

const log = createLogger({ service: 'voltfolio', fn: 'scraper' });
// The area's own declaration: the system's (`shared/system/pipeline.ts`) would bring every area's routes.
const MAX_RECEIVES = AUTOMATION_AREA.queues?.find((q) => q.name === 'scraper')?.maxReceiveCount ?? 3;

/**
 * One connector run a message, an automation run, or the schedule's sweep that starts them. A run cut
 * off by a crash comes back from the queue and resumes; after its last attempt it stays in the
 * dead-letter queue.
 */
export const handler = queueFunction(
  'scraper',
  log,
  'connector run failed',
  async (message, record, rlog) => {
    if ('sweep' in message) {
      const started = await sweep(rlog);
      rlog.info('connector sweep', { started });
      return;
    }
    const { companyId, automationRunId } = message;
    const lastAttempt = Number(record.attributes.ApproximateReceiveCount) >= MAX_RECEIVES;
    try {
      if (!('runId' in message)) {
        await executeAutomationRun(companyId, message.automationRunId, rlog);
        return;
      }
      if (automationRunId) await beginAutomationRun(companyId, automationRunId, rlog);
      await executeRun(companyId, message.runId, rlog);
      if (automationRunId) await finishFromConnectorRun(companyId, automationRunId, message.runId, rlog);
    } catch (err) {
      if (automationRunId) await automationRunBrokeOff(companyId, automationRunId, lastAttempt, rlog);
      throw err;
    }
  },
);
