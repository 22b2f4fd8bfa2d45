import { processUploadedImage } from '../../assets/asset-thumbnail-service.ts';
import { publishToCompany } from '../../core/adapters/live.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { s3ObjectsIn } from '../../core/lib/s3-event.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';

const log = createLogger({ service: 'voltfolio', fn: 'asset-images' });

/**
 * Objects stored under `assets/` in the documents bucket arrive here as S3 events through SQS. Uploaded
 * originals get a thumbnail and are recorded on their site; everything else (documents, thumbnails,
 * enhanced copies) is passed over.
 */
export const handler = queueFunction(
  'asset-images',
  log,
  'site picture failed',
  async (message, _record, recordLog) => {
    for (const object of s3ObjectsIn(message)) {
      const result = await processUploadedImage(object.bucket, object.key, recordLog);
      if (result.outcome === 'ignored') {
        recordLog.debug('object passed over', { key: object.key, reason: result.reason });
        continue;
      }
      recordLog.info('site picture handled', { key: object.key, outcome: result.outcome });
      await publishToCompany(
        result.companyId,
        { type: 'asset.image', keys: ['/assets', `/assets/${result.assetId}`] },
        recordLog,
      ).catch((err) => recordLog.warn('live update failed', { error: String(err) }));
    }
  },
);
