/*
 * The imports worker in a process of its own, as Lambda runs it: it handles one message (the SQS body given
 * as its argument) and prints how long that took and the most memory the process held meanwhile.
 */
import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/handlers/queue/imports.ts';

const body = process.argv[2] ?? '{}';
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
const event = {
  Records: [{ messageId: 'bench', receiptHandle: '', body, attributes: {}, messageAttributes: {} }],
} as unknown as SQSEvent;
const started = performance.now();
const out = await handler(event);
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ ms, peakRssMb: peak / 1024 / 1024, failures: out.batchItemFailures.length })}\n`,
);
