import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ScheduleDecl } from '../../shared/system/functions.ts';
import { localQueueUrl } from './environment.ts';
import type { Log } from './options.ts';
import { nextRun, parseScheduleExpression } from './schedule-expression.ts';

export interface Schedules {
  stop(): void;
}

/** setTimeout holds at most ~24.8 days; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * EventBridge rules with an SQS target: at each run the declared message goes to the declared queue.
 * Expressions are parsed up front, so a bad one fails the start rather than the first run.
 */
export function startSchedules(
  decls: readonly ScheduleDecl[],
  sqs: SQSClient,
  awsEndpoint: string,
  log: Log,
): Schedules {
  const parsed = decls.map((decl) => ({ decl, schedule: parseScheduleExpression(decl.expression) }));
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const wait = (at: Date, then: () => void) => {
    const delay = Math.min(Math.max(0, at.getTime() - Date.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      if (Date.now() < at.getTime()) wait(at, then);
      else then();
    }, delay);
    timer.unref();
    timers.add(timer);
  };

  for (const { decl, schedule } of parsed) {
    const run = (at: Date) => {
      wait(at, () => {
        sqs
          .send(
            new SendMessageCommand({
              QueueUrl: localQueueUrl(awsEndpoint, decl.queue),
              MessageBody: JSON.stringify(decl.message),
            }),
          )
          .then(() => log('schedule ran', { schedule: decl.name, queue: decl.queue }))
          .catch((err: unknown) => log('schedule failed', { schedule: decl.name, error: String(err) }));
        run(nextRun(schedule, at));
      });
    };
    run(nextRun(schedule, new Date()));
  }

  return {
    stop: () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
