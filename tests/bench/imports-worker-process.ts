/*
 * The imports worker in a process of its own, as Lambda runs it: it handles one message (the SQS body given
 * as its argument) and prints how long that took and the most memory the process held meanwhile.
 */
import type { SQSEvent } from 'aws-lambda';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { handler } from '../../functions/handlers/queue/imports.ts';

const body = process.argv[2] ?? '{}';
// The table calls by command, with the time each waited, so a slow run says where its time went.
const calls = new Map<string, { n: number; ms: number }>();
documentClient().middlewareStack.add(
  (next, context) => async (args) => {
    const started = performance.now();
    try {
      return await next(args);
    } finally {
      const name = String(context.commandName ?? '?');
      const c = calls.get(name) ?? { n: 0, ms: 0 };
      c.n++;
      c.ms += performance.now() - started;
      calls.set(name, c);
    }
  },
  { step: 'initialize', name: 'benchCallCounter' },
);
// rss() alone: the full memoryUsage() also walks the heap's spaces, which cost seconds over a long run.
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 50);
const event = {
  Records: [{ messageId: 'bench', receiptHandle: '', body, attributes: {}, messageAttributes: {} }],
} as unknown as SQSEvent;
const started = performance.now();
const cpuBefore = process.cpuUsage();
const out = await handler(event);
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const tableCalls = Object.fromEntries(
  [...calls].map(([name, c]) => [name, { n: c.n, avgMs: Math.round((c.ms / c.n) * 10) / 10 }]),
);
process.stdout.write(
  `${JSON.stringify({ ms, peakRssMb: peak / 1024 / 1024, failures: out.batchItemFailures.length, cpuMs: (cpu.user + cpu.system) / 1000, tableCalls })}\n`,
);
