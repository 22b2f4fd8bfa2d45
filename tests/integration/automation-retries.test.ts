import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { declaredRef, putItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { lambdaContext } from '../support/http-events.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';

// A connector run that breaks off for a reason it cannot name (a store briefly away, a crash).
vi.mock('../../functions/automation/scraper-service.ts', () => ({
  executeRun: async () => {
    throw new Error('The table was briefly away');
  },
  sweep: async () => 0,
}));

let w: InvoiceWorld;
let owner: string;
const call = (method: string, path: string, body?: unknown) => w.api({ method, path, token: owner, body });

type Handler = (
  e: SQSEvent,
  c: ReturnType<typeof lambdaContext>,
) => Promise<{ batchItemFailures: unknown[] }>;

async function deliver(bodies: string[], receiveCount: number) {
  const { handler } = (await import('../../functions/handlers/queue/scraper.ts')) as { handler: Handler };
  const event = sqsEvent(bodies, 'scraper');
  for (const r of event.Records) r.attributes.ApproximateReceiveCount = String(receiveCount);
  return handler(event, lambdaContext('scraper'));
}

beforeAll(async () => {
  process.env.PORTAL_SECRET_KEY_FILE = join(mkdtempSync(join(tmpdir(), 'automation-key-')), 'key');
  w = await startInvoiceWorld();
  owner = w.token('owner');
}, 120_000);

afterAll(async () => w?.stop());

describe('an automation run that breaks off', () => {
  it('is retried by the queue, then fails as interrupted and tells its owner after the last attempt', async () => {
    const supplierId = newId();
    await putItem(declaredRef('suppliers', {}), {
      _id: supplierId,
      name: 'British Gas Business',
      scraperEnabled: true,
    });
    const login = await call('PATCH', `/companies/${w.demoId}/supplier-portals/${supplierId}`, {
      username: 'someone',
      password: 'Some-password-1',
    });
    expect(login.status).toBe(200);
    const created = await call('POST', '/automations', {
      name: 'Nightly bills',
      templateId: 'portal-bills',
      supplierId,
    });
    const started = await call('POST', `/automation/${created.body._id}/run`);
    expect(started.status).toBe(201);
    const bodies = await w.drain('scraper');
    expect(bodies).toHaveLength(1);
    const runPath = `/automation-runs/${started.body._id}`;

    const first = await deliver(bodies, 1);
    // Handed back to the queue, which shows it again after its visibility timeout: the back-off.
    expect(first.batchItemFailures).toHaveLength(1);
    expect((await call('GET', runPath)).body).toMatchObject({ status: 'retrying', attempts: 1 });

    const last = await deliver(bodies, 3);
    // Left failed on the queue, which moves it to the dead-letter queue after its last receive.
    expect(last.batchItemFailures).toHaveLength(1);
    expect((await call('GET', runPath)).body).toMatchObject({
      status: 'failed',
      attempts: 2,
      errorCode: 'interrupted',
      error: 'The run stopped before it finished, after every retry.',
    });
    const notes = (await call('GET', '/notifications')).body.data as { content: string; route: string }[];
    expect(notes).toContainEqual(
      expect.objectContaining({
        content:
          'The automation "Nightly bills" failed: The run stopped before it finished, after every retry.',
        route: '/automation/runs',
      }),
    );
  });
});
