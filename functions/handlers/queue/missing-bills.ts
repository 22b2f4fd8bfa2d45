import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { notifyMissingBills } from '../../notifications/missing-bills-service.ts';
import { checkAllTargets } from '../../targets/index.ts';

const log = createLogger({ service: 'voltfolio', fn: 'missing-bills' });

/**
 * The daily schedules' messages: checks every company for missing bills as of the day it was sent, or
 * judges every reduction target. A run that fails is retried from the queue; notices already given are
 * not given again.
 */
export const handler = queueFunction(
  'missing-bills',
  log,
  'missing-bills check failed',
  async (m, record, recordLog) => {
    if (m.check === 'targets') {
      await checkAllTargets(recordLog);
      return;
    }
    const sent = Number(record.attributes?.SentTimestamp);
    const today = new Date(Number.isFinite(sent) && sent > 0 ? sent : Date.now()).toISOString().slice(0, 10);
    await notifyMissingBills(today, recordLog);
  },
);
