import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_QUEUE } from '../../shared/system/areas/reports.ts';
import { demoToken, type Json, jsonApi } from '../support/local-api.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let token = '';
let companyId = '';

beforeAll(async () => {
  // A short visibility timeout makes the retries and the move to the dead-letter queue take seconds.
  local = await startLocalStack({ seed: true, visibilityTimeoutSeconds: 2 });
  token = await demoToken(local);
  const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
  companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';
}, 400_000);
afterAll(() => local?.stop());

const { api } = jsonApi(
  () => local.apiUrl,
  () => token,
);

async function outbox(): Promise<{ to: string; subject: string }[]> {
  const dir = join(local.stateDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(join(dir, name), 'utf8');
      const header = (h: string) => new RegExp(`^${h}: (.*)$`, 'm').exec(raw)?.[1] ?? '';
      return { to: header('To'), subject: header('Subject') };
    }),
  );
}

async function depth(url: string): Promise<number> {
  const out = await local.stack.messaging.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}

describe('a scheduled run that fails every attempt', () => {
  it('is tried maxReceiveCount times, lands in the dead-letter queue, and its owner is told once', async () => {
    const created = await api('/scheduled-reports', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Doomed coverage',
        templateId: 'data-coverage',
        recipients: ['doomed@example.com'],
        frequency: 'weekly',
        dayOfWeek: 1,
        time: '06:00',
        format: 'csv',
      }),
    });
    expect(created.status).toBe(201);
    const scheduleId = String(created.body._id);
    // Its portfolio is gone by the time it runs: no attempt can build the report.
    const { changeSchedule } = await import('../../functions/reports/schedule-repository.ts');
    await changeSchedule(companyId, scheduleId, () => ({
      scopeType: 'portfolio',
      scopeId: '6a00000000000000000000ff',
    }));

    const queueUrl = local.env.QUEUE_URL_REPORTS as string;
    const dlqUrl = local.env.QUEUE_URL_REPORTS_DLQ as string;
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify({ companyId, scheduleId, runAt: '2026-03-02T06:00:00.000Z' }),
      }),
    );
    const deadline = Date.now() + 90_000;
    while ((await depth(dlqUrl)) === 0 && Date.now() < deadline) await local.drainQueues(10_000);

    const dead = await local.stack.messaging.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    expect(dead.Messages?.map((m) => (JSON.parse(m.Body ?? '{}') as Json).scheduleId)).toEqual([scheduleId]);
    expect(Number(dead.Messages?.[0]?.Attributes?.ApproximateReceiveCount)).toBeGreaterThanOrEqual(
      REPORTS_QUEUE.maxReceiveCount ?? 3,
    );
    expect(await depth(queueUrl)).toBe(0);

    const schedule = (await api(`/scheduled-reports/${scheduleId}`)).body;
    expect(schedule.lastStatus).toBe('failed');
    expect(String(schedule.lastError)).toMatch(/could not be built|not found|no such/i);

    const notices = (await api('/users/me/notifications?limit=100')).body.data as Json[];
    const told = notices.filter((n) => String(n.content).includes('Doomed coverage'));
    expect(told).toHaveLength(1);
    expect(String(told[0]?.content)).toContain('2026-02-23 to 2026-03-01 could not be sent');
    expect(told[0]?.route).toBe('/reports/schedule');

    const mails = await outbox();
    // Told once, at the last attempt, not at each of the three; and the recipient got nothing.
    expect(mails.filter((m) => m.subject === 'Scheduled report not sent: Doomed coverage')).toEqual([
      { to: 'owner@demo.test', subject: 'Scheduled report not sent: Doomed coverage' },
    ]);
    expect(mails.filter((m) => m.to === 'doomed@example.com')).toHaveLength(0);
  }, 150_000);
});
