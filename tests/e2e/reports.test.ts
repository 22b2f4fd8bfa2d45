import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfPages } from '../support/report-files.ts';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext({ acceptDownloads: true })).newPage();
}, 170_000);

describe('reports', () => {
  it('generates a SECR PDF from the form, follows it live to ready and downloads it', async () => {
    await signIn(page, env.stack.origin, 'owner@demo.test', '/reports');
    const form = page.getByRole('form', { name: 'Generate a report' });
    await form.getByLabel('Template').selectOption('secr', { timeout: 15_000 });
    await form.getByLabel('Format').selectOption('pdf');
    await form.getByLabel('From').fill('2025-01-01');
    await form.getByLabel('To').fill('2025-12-31');
    await form.getByLabel('Intensity ratio').selectOption('employees');
    await form.getByLabel(/This period/).fill('250');
    await form.getByRole('button', { name: 'Generate' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 15_000 }).toMatch(/queued/);

    // No reload: the worker's live messages bring the row from queued to ready.
    const row = page
      .getByRole('table', { name: 'Recent reports' })
      .getByRole('row', { name: /SECR 2025-01-01/ });
    await expect
      .poll(() => row.locator('[data-status]').getAttribute('data-status'), {
        timeout: 90_000,
        interval: 500,
      })
      .toBe('ready');
    expect(await row.textContent()).toContain('Olivia Bennett');

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      row.getByRole('button', { name: /^Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = new Uint8Array(await readFile(await download.path()));
    const text = await pdfPages(bytes);
    expect(text[0]).toContain('Streamlined Energy and Carbon Reporting');
    expect(text.join(' ')).toContain('Per employee');
    expect(text.at(-1)).toContain(`Page ${text.length} of ${text.length}`);

    await page.goto(`${env.stack.origin}/reports/history`);
    await expect
      .poll(
        () =>
          page
            .getByRole('table', { name: 'Reports' })
            .getByRole('row', { name: /SECR 2025-01-01/ })
            .count(),
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
  }, 200_000);
});
