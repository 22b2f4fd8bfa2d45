import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localQueueUrl } from '../../infra/local/environment.ts';
import { demoToken, jsonApi, reportBuilt } from '../support/local-api.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let token = '';
let companyId = '';

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  token = await demoToken(local);
  const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
  companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';
}, 180_000);
afterAll(() => local?.stop());

const { api, post } = jsonApi(
  () => local.apiUrl,
  () => token,
);

interface Mail {
  to: string;
  subject: string;
  text: string;
  raw: string;
}

/** The plain-text part of a sent message, decoded. */
function textOf(raw: string): string {
  const at = raw.indexOf('Content-Type: text/plain');
  if (at < 0) return '';
  const start = raw.indexOf('\r\n\r\n', at) + 4;
  const end = raw.indexOf('\r\n--', start);
  return Buffer.from(raw.slice(start, end < 0 ? undefined : end).replace(/\s+/g, ''), 'base64').toString(
    'utf8',
  );
}

async function outbox(): Promise<Mail[]> {
  const dir = join(local.stateDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(join(dir, name), 'utf8');
      const header = (h: string) => new RegExp(`^${h}: (.*)$`, 'm').exec(raw)?.[1] ?? '';
      return { to: header('To'), subject: header('Subject'), text: textOf(raw), raw };
    }),
  );
}
const mailsTo = async (to: string) => (await outbox()).filter((m) => m.to === to);

const built = (id: string) => reportBuilt(local, api, id, 60_000);

async function queueRun(scheduleId: string, runAt: string) {
  const { messaging } = local.stack;
  await messaging.sqs.send(
    new SendMessageCommand({
      QueueUrl: localQueueUrl(messaging.endpoint, 'reports'),
      MessageBody: JSON.stringify({ companyId, scheduleId, runAt }),
    }),
  );
}

describe('reports sent by e-mail', () => {
  it('sends a built report as one mail with the file attached and its key figures in the body', async () => {
    const asked = await post('/reports/generate2', {
      templateId: 'portfolio-summary',
      scopeType: 'company',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      format: 'xlsx',
    });
    const report = await built(String(asked.body._id));
    expect(report.status).toBe('ready');
    const sent = await post(`/reports/${String(report._id)}/send`, {
      recipients: ['board@example.com'],
      message: 'For Thursday',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ sent: 1, attached: true });
    const mails = await mailsTo('board@example.com');
    expect(mails).toHaveLength(1);
    const mail = mails[0] as Mail;
    expect(mail.subject).toContain('2025-01-01 to 2025-12-31');
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename=".+\.xlsx"/);
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.text).toContain('For Thursday');
    const headline = report.headline as { label: string; value: string }[];
    expect(headline.length).toBeGreaterThan(0);
    for (const f of headline) expect(mail.text).toContain(`${f.label}: ${f.value}`);

    const refused = await post(`/reports/${String(report._id)}/send`, { recipients: ['not an address'] });
    expect(refused.status).toBe(400);
  }, 120_000);
});

describe('scheduled reports on the local stack', () => {
  let scheduleId = '';

  it('is created with its next run on the London clock and is put on the timer', async () => {
    const created = await post('/scheduled-reports', {
      name: 'Weekly data coverage',
      templateId: 'data-coverage',
      recipients: ['cfo@example.com', 'Auditor@Example.org'],
      frequency: 'weekly',
      dayOfWeek: 7,
      time: '01:30',
      format: 'csv',
    });
    expect(created.status).toBe(201);
    expect(created.body.timeZone).toBe('Europe/London');
    expect(created.body.recipients).toEqual(['cfo@example.com', 'auditor@example.org']);
    expect(Date.parse(String(created.body.nextRunAt))).toBeGreaterThan(Date.now());
    scheduleId = String(created.body._id);
  });

  it('sends once for the week before the autumn clock change, though 01:30 happens twice that night', async () => {
    // The run of Sunday 25 October 2026, 01:30 BST, as if it had come: the sweep finds it due.
    const { changeSchedule, putDue } = await import('../../functions/reports/schedule-repository.ts');
    const { sweepSchedules } = await import('../../functions/reports/schedule-service.ts');
    const { createLogger } = await import('../../functions/core/lib/logger.ts');
    const log = createLogger({ test: 'schedules' }, 'error');
    await changeSchedule(companyId, scheduleId, () => ({ nextRunAt: '2026-10-25T00:30:00.000Z' }));
    await putDue({ companyId, scheduleId, nextRunAt: '2026-10-25T00:30:00.000Z' });
    expect(await sweepSchedules(log, new Date('2026-10-25T00:30:20Z'))).toBeGreaterThanOrEqual(1);
    // 01:30 GMT, the second reading of 01:30 that night: nothing more is due.
    const second = await sweepSchedules(log, new Date('2026-10-25T01:30:20Z'));
    const schedule = (await api(`/scheduled-reports/${scheduleId}`)).body;
    expect(Date.parse(String(schedule.nextRunAt))).toBeGreaterThan(Date.parse('2026-10-25T01:30:20Z'));
    await local.drainQueues(60_000);
    const mails = await mailsTo('cfo@example.com');
    const week = mails.filter((m) => m.subject.includes('2026-10-18 to 2026-10-24'));
    expect(week).toHaveLength(1);
    expect(second).toBe(0);
    expect((week[0] as Mail).raw).toMatch(/filename=".+\.csv"/);
    expect((week[0] as Mail).raw).toContain('List-Unsubscribe: <');
  }, 120_000);

  it('sends a run whose message arrives twice only once', async () => {
    await queueRun(scheduleId, '2026-09-06T00:30:00.000Z');
    await queueRun(scheduleId, '2026-09-06T00:30:00.000Z');
    await local.drainQueues(60_000);
    const mails = await mailsTo('cfo@example.com');
    expect(mails.filter((m) => m.subject.includes('2026-08-30 to 2026-09-05'))).toHaveLength(1);
  }, 120_000);

  it('sends now when asked, besides the timed runs', async () => {
    const before = (await mailsTo('auditor@example.org')).length;
    const asked = await post(`/scheduled-reports/${scheduleId}/send`, {});
    expect(asked.status).toBe(202);
    await local.drainQueues(60_000);
    expect((await mailsTo('auditor@example.org')).length).toBe(before + 1);
  }, 120_000);

  it('takes a recipient off by the link in their mail, without signing in', async () => {
    const mail = (await mailsTo('auditor@example.org')).at(-1) as Mail;
    const link = /Stop receiving this report: (\S+)/.exec(mail.text)?.[1] ?? '';
    expect(link).toContain('/api/scheduled-reports/unsubscribe?token=');
    const html = { accept: 'text/html,application/xhtml+xml' };
    const page = await fetch(link, { headers: html });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    // Only asking: still subscribed.
    expect((await api(`/scheduled-reports/${scheduleId}`)).body.recipients).toContain('auditor@example.org');
    const done = await fetch(link, { method: 'POST', headers: html });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('will no longer receive');
    const schedule = (await api(`/scheduled-reports/${scheduleId}`)).body;
    expect(schedule.recipients).toEqual(['cfo@example.com']);
    expect(schedule.paused).toBe(false);

    const forged = await fetch(`${local.apiUrl}/scheduled-reports/unsubscribe?token=forged`, {
      method: 'POST',
    });
    expect(await forged.text()).toContain('not valid');
    expect((await api(`/scheduled-reports/${scheduleId}`)).body.recipients).toEqual(['cfo@example.com']);
  }, 60_000);
});
