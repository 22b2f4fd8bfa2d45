/**
 * `npm run bench:schedules` (Node 24): BENCH_SCHEDULES (default 100) scheduled reports of the demo company,
 * each to its own recipient, all due at the same minute on the local stack. Timed from the timer's tick
 * (the sweep message the one-minute timer sends) until the last of their mails is in the outbox; then a
 * second tick, and every recipient must hold exactly one mail. Target: all sent within 2 minutes.
 * BENCH_TEMPLATE and BENCH_FORMAT choose the report (data-coverage, csv by default).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { changeSchedule, putDue } from '../../functions/reports/schedule-repository.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { startLocalStack } from '../support/local-stack.ts';

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 100);
const TEMPLATE = process.env.BENCH_TEMPLATE ?? 'data-coverage';
const FORMAT = process.env.BENCH_FORMAT ?? 'csv';
const TARGET_MS = 120_000;
const GIVE_UP_MS = 15 * 60_000;

const local = await startLocalStack({ seed: true });
const { accessToken: token } = await signInForToken({
  baseUrl: local.origin,
  email: 'owner@demo.test',
  password: DEMO_PASSWORD,
});
const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
const companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const recipient = (i: number) => `bench-${i}@example.com`;

/** The bench's mails in the outbox: whom each went to, and when its file was written. */
async function benchMails(): Promise<{ to: string; at: number }[]> {
  const dir = join(local.stateDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
  const out: { to: string; at: number }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const raw = await readFile(path, 'utf8');
    const to = /^To: (.*)$/m.exec(raw)?.[1] ?? '';
    if (to.startsWith('bench-')) out.push({ to, at: (await stat(path)).mtimeMs });
  }
  return out;
}

function tick() {
  const { messaging } = local.stack;
  return messaging.sqs.send(
    new SendMessageCommand({
      QueueUrl: local.env.QUEUE_URL_REPORTS,
      MessageBody: JSON.stringify({ sweep: 'scheduled-reports' }),
    }),
  );
}

async function main() {
  const ids: string[] = [];
  for (let i = 0; i < SCHEDULES; i++) {
    const created = await call('POST', '/scheduled-reports', {
      name: `Bench ${i}`,
      templateId: TEMPLATE,
      recipients: [recipient(i)],
      frequency: 'weekly',
      dayOfWeek: 1,
      time: '06:00',
      format: FORMAT,
    });
    ids.push(String(created._id));
  }
  // All due at the same past minute: the schedule first, then its entry on the timer's list, so the
  // minute timer cannot take some before the tick below.
  const due = new Date(Date.now() - 60_000);
  due.setUTCSeconds(0, 0);
  const nextRunAt = due.toISOString();
  for (const id of ids) await changeSchedule(companyId, id, () => ({ nextRunAt }));
  for (const id of ids) await putDue({ companyId, scheduleId: id, nextRunAt });

  const t0 = Date.now();
  await tick();
  let mails = await benchMails();
  while (new Set(mails.map((m) => m.to)).size < SCHEDULES && Date.now() - t0 < GIVE_UP_MS) {
    await new Promise((r) => setTimeout(r, 500));
    mails = await benchMails();
  }
  const reached = new Set(mails.map((m) => m.to)).size;
  const first = Math.min(...mails.map((m) => m.at)) - t0;
  const last = Math.max(...mails.map((m) => m.at)) - t0;

  // Another tick, and time for anything queued twice to arrive: nobody may get a second mail.
  await tick();
  await new Promise((r) => setTimeout(r, 15_000));
  await local.drainQueues(30_000);
  const after = await benchMails();
  const perRecipient = new Map<string, number>();
  for (const m of after) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
  const twice = [...perRecipient.entries()].filter(([, n]) => n > 1);

  console.log(
    `schedules: ${SCHEDULES} ${TEMPLATE} ${FORMAT} reports due at once; ${reached}/${SCHEDULES} recipients mailed; ` +
      `first mail ${(first / 1000).toFixed(1)} s, last ${(last / 1000).toFixed(1)} s after the tick ` +
      `(target ${TARGET_MS / 1000} s); ${after.length} mails in all, ${twice.length} recipients mailed twice`,
  );
  if (reached < SCHEDULES || twice.length > 0) {
    console.error('schedules: a run was not sent, or sent twice');
    process.exitCode = 1;
  } else if (last > TARGET_MS) {
    console.error(`schedules: over the target of ${TARGET_MS / 1000} s`);
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  await local.stop();
}
