import { SQSClient } from '@aws-sdk/client-sqs';
import { vi } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';

/** A client's `send`, as the kill wraps it. */
interface Sender {
  send: (command: unknown, ...rest: unknown[]) => Promise<unknown>;
}

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
  const killing = (target: Sender, send: Sender['send']) =>
    vi.spyOn(target, 'send').mockImplementation(function (
      this: unknown,
      command: unknown,
      ...rest: unknown[]
    ) {
      if (!dead && dies(command)) dead = true;
      if (dead) return new Promise<never>(() => undefined);
      return send.call(this, command, ...rest);
    });
  const client = documentClient();
  // Both clients are only ever asked to send one command at a time here.
  const table = killing(client as unknown as Sender, client.send.bind(client) as Sender['send']);
  const queues = killing(
    SQSClient.prototype as unknown as Sender,
    SQSClient.prototype.send as unknown as Sender['send'],
  );
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
