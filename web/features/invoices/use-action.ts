import { useState } from 'react';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';

/** The server's own words for a refusal a person can act on (4xx); otherwise the action's message. */
export function problemOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401)
    return error.message || fallback;
  return fallback;
}

/**
 * One action at a time on a page: busy while it runs, a toast when it is done or has failed, and the
 * error handed back for fields to show.
 */
export function useAction() {
  const [busy, setBusy] = useState<string>();
  async function run<T>(
    name: string,
    action: () => Promise<T>,
    messages: { problem: string; done?: string },
  ): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
    setBusy(name);
    try {
      const value = await action();
      if (messages.done) showToast(messages.done, 'success');
      return { ok: true, value };
    } catch (error) {
      showToast(problemOf(error, messages.problem), 'error');
      return { ok: false, error };
    } finally {
      setBusy(undefined);
    }
  }
  return { busy, run };
}
