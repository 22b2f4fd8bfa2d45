import { SQSClient } from '@aws-sdk/client-sqs';
import { vi } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';

/**
 * Runs a worker until `dies` says a command is its last: that command and everything the worker sends
 * after it, to the table or to a queue, never land, as when its process is killed. Answers once the
 * worker is dead.
 */
export async function dieOn(
  work: () => Promise<unknown>,
  dies: (command: unknown) => boolean,
): Promise<void> {
  let dead = false;
  const killing = <T extends { send: (...args: never[]) => unknown }>(target: T, send: T['send']) =>
    vi.spyOn(target, 'send').mockImplementation(function (
      this: unknown,
      command: unknown,
      ...rest: unknown[]
    ) {
      if (!dead && dies(command)) dead = true;
      if (dead) return new Promise<never>(() => undefined);
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>).call(this, command, ...rest);
    } as T['send']);
  const client = documentClient();
  const table = killing(client, client.send.bind(client));
  const queues = killing(SQSClient.prototype, SQSClient.prototype.send);
  try {
    void work().catch(() => undefined);
    await vi.waitFor(
      () => {
        if (!dead) throw new Error('The worker has not reached the command it dies on');
      },
      { timeout: 30_000 },
    );
  } finally {
    table.mockRestore();
    queues.mockRestore();
  }
}
