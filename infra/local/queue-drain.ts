import type { MessagingEmulator } from './messaging.ts';
import type { QueuePollers } from './queue-pollers.ts';
import type { ObjectCreatedRouting } from './s3-routing.ts';

export interface DrainTarget {
  messaging: MessagingEmulator;
  routing: ObjectCreatedRouting;
  pollers?: QueuePollers;
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Messages a queue still holds: ready, delayed, or received and not yet deleted. */
function held(messaging: MessagingEmulator, queue: string): number {
  const q = messaging.server.inspectQueue(queue);
  if (!q) return 0;
  return q.messages.ready.length + q.messages.delayed.length + q.messages.inflight.length;
}

/**
 * Waits until every notification is sent, every polled queue is empty and no consumer is running: what a
 * test waits for before looking at what the consumers did. Retried messages count as held until they are
 * deleted or dead-lettered.
 */
export async function drainQueues(target: DrainTarget): Promise<void> {
  const { messaging, routing, pollers, timeoutMs } = target;
  const deadline = Date.now() + timeoutMs;
  let quietChecks = 0;
  for (;;) {
    await routing.idle();
    const queues = pollers?.polled() ?? [];
    const holding = queues.filter((q) => held(messaging, q) > 0);
    const quiet = holding.length === 0 && (pollers?.idle() ?? true) && routing.pending() === 0;
    // Two quiet checks in a row, so work that a consumer started just now is not missed.
    quietChecks = quiet ? quietChecks + 1 : 0;
    if (quietChecks >= 2) return;
    if (Date.now() > deadline) {
      throw new Error(
        `Queues not drained within ${timeoutMs} ms (still holding: ${holding.join(', ') || 'none'})`,
      );
    }
    await sleep(25);
  }
}
