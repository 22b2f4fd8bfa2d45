/**
 * Runs calls on named channels where a new call aborts the one still in flight on its channel, so a
 * quick change of filters never lets a slow, stale answer land after the fresh one.
 */
export function createLatestRequests() {
  const inFlight = new Map<string, AbortController>();
  return function run<T>(channel: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    inFlight.get(channel)?.abort();
    const controller = new AbortController();
    inFlight.set(channel, controller);
    return call(controller.signal).finally(() => {
      if (inFlight.get(channel) === controller) inFlight.delete(channel);
    });
  };
}

/** An aborted fetch: superseded by a newer request, not a failure to show. */
export const isAbort = (error: unknown): boolean =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';
