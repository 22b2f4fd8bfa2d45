import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { buildReport } from '../../reports/report-worker.ts';

const log = createLogger({ service: 'voltfolio', fn: 'reports' });

/** Messages name one build of one report each: `{ companyId, reportId, generation }`. */
export const handler = queueFunction('reports', log, 'report failed', async (message, _record, rlog) => {
  await buildReport(message, rlog);
});
