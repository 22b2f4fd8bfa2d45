import { vi } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';

/**
 * Runs a worker until `dies` says a table command is its last: that command and everything the worker
 * sends after it never land, as when its process is killed. Answers once the worker is dead.
 */
export async function dieOn(
  work: () => Promise<unknown>,
  dies: (command: unknown) => boolean,
): Promise<void> {
  const client = documentClient();
  const send = client.send.bind(client);
  let dead = false;
  const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (!dead && dies(command)) dead = true;
    if (dead) return new Promise<never>(() => undefined);
    return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as typeof client.send);
  try {
    void work().catch(() => undefined);
    await vi.waitFor(
      () => {
        if (!dead) throw new Error('The worker has not reached the command it dies on');
      },
      { timeout: 30_000 },
    );
  } finally {
    spy.mockRestore();
  }
}
