/*
 * A queue worker in a process of its own, so a test can kill it mid-work as a crash would: it handles
 * the SQS record given as its argument (its environment names the queue) with a handler that never ends,
 * and says "working" once the handler has started.
 */
import type { SQSRecord } from 'aws-lambda';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { queueFunction } from '../../functions/core/middleware/queue-function.ts';

const record = JSON.parse(process.argv[2] ?? '{}') as SQSRecord;
const handler = queueFunction('capture', createLogger({ service: 'test', fn: 'capture' }), 'failed', () => {
  process.stdout.write('working\n');
  return new Promise<void>(() => {
    setInterval(() => {}, 1000);
  });
});
void handler({ Records: [record] });
