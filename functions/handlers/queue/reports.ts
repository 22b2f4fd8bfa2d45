import { REPORTS_QUEUE } from '../../../shared/system/areas/reports.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { buildReport } from '../../reports/report-worker.ts';
import { reportRunFailure, runSchedule, sweepSchedules } from '../../reports/schedule-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'reports' });

const MAX_RECEIVES = REPORTS_QUEUE.maxReceiveCount ?? 3;

/**
 * Three kinds of message: one build of one report (`{ companyId, reportId, generation }`), the timer's
 * sweep of scheduled reports, and one run of a scheduled report.
 */
export const handler = queueFunction('reports', log, 'report failed', async (message, record, rlog) => {
  if ('reportId' in message) {
    await buildReport(message, rlog);
    return;
  }
  if ('sweep' in message) {
    await sweepSchedules(rlog);
    return;
  }
  try {
    // The delivery's message id: a retry of this delivery may take its own claim again, a copy may not.
    await runSchedule(message, record.messageId, rlog);
  } catch (err) {
    if (Number(record.attributes?.ApproximateReceiveCount ?? 1) >= MAX_RECEIVES)
      await reportRunFailure(message, err, rlog).catch((e: unknown) =>
        rlog.error('run failure not reported', { error: String(e) }),
      );
    throw err;
  }
});
