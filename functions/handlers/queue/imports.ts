import '../record-import-kinds.ts';
import { loadCaller } from '../../core/access/caller-service.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { s3ObjectsIn } from '../../core/lib/s3-event.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { readFileHead, runImport, runRollback } from '../../imports/import-run.ts';
import { runQueuedImport } from '../../imports/index.ts';

const log = createLogger({ service: 'voltfolio', fn: 'imports' });

/**
 * Import files arrive as S3 object-created events (`imports/{companyId}/{importId}/{file}`): their header
 * is read. Imports and rollbacks claimed by the API arrive as messages of their own. A message that throws
 * is retried by SQS and, after its last attempt, kept in the dead-letter queue.
 */
export const handler = queueFunction('imports', log, 'import failed', async (message, _record, rlog) => {
  if ('importId' in message) {
    const caller = await loadCaller(message.sub, [], { companyId: message.companyId });
    if (message.action === 'import') await runImport(message.companyId, message.importId, caller, rlog);
    else if (message.action === 'at-once')
      await runQueuedImport(message.companyId, message.importId, caller, rlog);
    else await runRollback(message.companyId, message.importId, caller, rlog);
    return;
  }
  for (const object of s3ObjectsIn(message)) {
    const [, companyId, importId] = object.key.split('/');
    if (!companyId || !importId) continue;
    await readFileHead(companyId, importId, object.size);
  }
});
