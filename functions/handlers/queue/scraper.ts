import { executeRun, sweep } from '../../automation/scraper-service.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';

const log = createLogger({ service: 'voltfolio', fn: 'scraper' });

/**
 * One connector run a message, or the schedule's sweep that starts them. A run cut off by a crash comes
 * back from the queue and resumes; after its last attempt it stays in the dead-letter queue.
 */
export const handler = queueFunction(
  'scraper',
  log,
  'connector run failed',
  async (message, _record, rlog) => {
    if ('sweep' in message) {
      const started = await sweep(rlog);
      rlog.info('connector sweep', { started });
      return;
    }
    await executeRun(message.companyId, message.runId, rlog);
  },
);
