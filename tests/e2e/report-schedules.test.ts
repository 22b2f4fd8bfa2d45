import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

/** The To and Subject of every mail in the local outbox. */
async function outbox(): Promise<{ to: string; subject: string }[]> {
  const dir = join(env.stack.stateDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(join(dir, name), 'utf8');
      const header = (h: string) => new RegExp(`^${h}: (.*)$`, 'm').exec(raw)?.[1] ?? '';
      return { to: header('To'), subject: header('Subject') };
    }),
  );
}

describe('the scheduled reports page', () => {
  it('schedules a report to a member and an outside address, lists it, sends it now, and the mail goes out', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/reports/schedule');
    const form = page.getByRole('form', { name: 'Schedule a report' });
    await form.getByLabel('Name').fill('Board data coverage', { timeout: 15_000 });
    await form.getByLabel('Template').selectOption('data-coverage');
    await form.getByLabel('Format').selectOption('csv');

    // The picker offers members who may read the whole company, and not one granted a single site.
    await form.getByLabel('Members', { exact: true }).click();
    await page.keyboard.type('Sam');
    await page.getByRole('option', { name: /Sam Patel/ }).click({ timeout: 15_000 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Arjun');
    await expect.poll(() => page.getByRole('option', { name: /Arjun Shah/ }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await form.getByLabel('Other addresses').fill('board@example.com');
    await form.getByRole('button', { name: 'Schedule' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 15_000 })
      .toMatch(/Scheduled: the first report goes out/);

    const row = page
      .getByRole('table', { name: 'Scheduled reports' })
      .getByRole('row', { name: /Board data coverage/ });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('user@demo.test, board@example.com');

    await row.getByRole('button', { name: 'Send Board data coverage now' }).click();
    await expect
      .poll(() => row.getByRole('status').textContent(), { timeout: 15_000 })
      .toMatch(/^Sending \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} to 2$/);

    // The queue builds the report and mails each recipient once.
    await expect
      .poll(async () => (await outbox()).filter((m) => m.to === 'board@example.com').length, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe(1);
    const mails = await outbox();
    expect(mails.filter((m) => m.to === 'user@demo.test')).toHaveLength(1);
    expect(mails.find((m) => m.to === 'board@example.com')?.subject).toContain('Board data coverage');
  }, 240_000);
});
