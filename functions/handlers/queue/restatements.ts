import { RESTATEMENTS_QUEUE } from '../../../shared/system/areas/analytics.ts';
import { finishMeterUserMoves } from '../../accounts/index.ts';
import { remakeKeptParts } from '../../analytics/analytics-kept-site-years-remake.ts';
import { reportRestatementFailure, runRestatement } from '../../analytics/restatement-worker.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';

const log = createLogger({ service: 'voltfolio', fn: 'restatements' });

const MAX_RECEIVES = RESTATEMENTS_QUEUE.maxReceiveCount;

/**
 * The analytics worker: one restatement of a company's emissions in a factor set edition
 * (`{ companyId, jobId }`), or parts of a company's kept copy of site years to make afresh
 * (`{ companyId, keptSiteYears }`), or a company's moves of meters between users that requests died
 * before finishing (`{ companyId, meterUserMoves }`), a failure of which is tried again and then kept on
 * the dead-letter queue.
 */
export const handler = queueFunction(
  'restatements',
  log,
  'restatement failed',
  async (message, record, rlog) => {
    if ('meterUserMoves' in message) {
      const finished = await finishMeterUserMoves(message.companyId);
      rlog.info('meter user moves finished', { companyId: message.companyId, finished });
      return;
    }
    if ('keptSiteYears' in message) {
      const made = await remakeKeptParts(message.companyId, message.keptSiteYears);
      rlog.info('kept site years made afresh', { companyId: message.companyId, parts: made });
      return;
    }
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
