import { describe, expect, it } from 'vitest';
import { bulk, bulkMessage } from '../../web/features/invoices/api.ts';
import { createApiClient } from '../../web/lib/api-client.ts';

/** The queue's bulk calls against a server that answers as the API does. */
function calls(answer: unknown) {
  const sent: { url: string; body: unknown }[] = [];
  const api = createApiClient({
    baseUrl: 'http://localhost:3000/api/',
    getToken: async () => 'tok',
    onUnauthorized: () => undefined,
    fetch: (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      sent.push({ url: String(input), body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch,
  });
  return { actions: bulk(api), sent };
}

describe('bulk force', () => {
  it('sends the selected ids to bulk-force and reads how many were forced', async () => {
    const { actions, sent } = calls({ updated: 2, missing: ['c'], failed: [] });
    const answer = await actions.force(['a', 'b', 'c']);
    expect(sent).toEqual([
      { url: 'http://localhost:3000/api/invoice-validation/bulk-force', body: { ids: ['a', 'b', 'c'] } },
    ]);
    expect(bulkMessage(answer, 'forced')).toBe('2 invoices forced. 1 no longer exists.');
  });

  it('fails with the reason when none could be forced', async () => {
    const { actions } = calls({
      updated: 0,
      missing: [],
      failed: [{ id: 'a', message: 'Invoice not found' }],
    });
    await expect(actions.force(['a'])).rejects.toThrow('Invoice not found');
  });
});
