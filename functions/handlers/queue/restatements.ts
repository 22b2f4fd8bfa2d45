import { RESTATEMENTS_QUEUE } from '../../../shared/system/areas/analytics.ts';
import { reportRestatementFailure, runRestatement } from '../../analytics/restatement-worker.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';

const log = createLogger({ service: 'voltfolio', fn: 'restatements' });

const MAX_RECEIVES = RESTATEMENTS_QUEUE.maxReceiveCount;

/** One restatement of a company's emissions in a factor set edition: `{ companyId, jobId }`. */
export const handler = queueFunction(
  'restatements',
  log,
  'restatement failed',
  async (message, record, rlog) => {
    try {
      await runRestatement(message, rlog);
    } catch (err) {
      if (Number(record.attributes?.ApproximateReceiveCount ?? 1) >= MAX_RECEIVES)
        await reportRestatementFailure(message, err, rlog).catch((e: unknown) =>
          rlog.error('restatement failure not recorded', { error: String(e) }),
        );
      throw err;
    }
  },
);
