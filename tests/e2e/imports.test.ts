import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
}, 170_000);

/** A monthly consumption export: one demo meter by name, one meter nobody has. */
const CSV = [
  'Meter name,Month,Consumption kWh,Cost',
  'Aldgate House half-hourly electricity,Jan-15,1234,£150.00',
  'Nowhere Street electricity,Jan-15,10,£1.00',
].join('\r\n');

describe('the import wizard', () => {
  it('uploads a file with progress, maps it, shows the dry run and imports it with live progress', async () => {
    await signIn(page, env.stack.origin, 'owner@demo.test', '/imports/wizard/upload');
    await expect.poll(() => page.getByLabel('CSV or XLSX file').count(), { timeout: 15_000 }).toBe(1);
    // The labelled control is a button that opens the browser's file picker; the file goes to its input.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'monthly.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Upload progress' });
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');

    // The worker reads the header when the file lands, and the mapping suggested from it is shown.
    await page.waitForURL(/\/imports\/wizard\/[0-9a-f]{24}\/mapping$/, { timeout: 60_000 });
    await expect
      .poll(
        () =>
          page
            .getByLabel(/^Meter \(MPAN/)
            .first()
            .inputValue(),
        { timeout: 15_000 },
      )
      .toBe('Meter name');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();

    await page.waitForURL(/\/preview$/, { timeout: 15_000 });
    const totals = page.getByLabel('Totals');
    await expect
      .poll(async () => (await totals.textContent()) ?? '', { timeout: 30_000 })
      .toContain('1 to create');
    expect(await totals.textContent()).toContain('1 with errors');
    expect(await page.getByRole('table', { name: 'Rows' }).textContent()).toContain(
      'No meter of this company',
    );

    await page.getByRole('button', { name: /^Import 1 rows$/ }).click();
    await page.waitForURL(/\/import$/, { timeout: 15_000 });
    await expect
      .poll(async () => (await page.getByText('completed', { exact: true }).count()) > 0, {
        timeout: 90_000,
        interval: 1000,
      })
      .toBe(true);
    expect(await page.getByLabel('Totals').textContent()).toContain('1 to create');
    await expect.poll(() => page.getByRole('button', { name: 'Roll back this import' }).count()).toBe(1);
  }, 240_000);
});
