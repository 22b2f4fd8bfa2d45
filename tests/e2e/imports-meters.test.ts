import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { allAccounts, type StoredAccount } from '../../functions/accounts/index.ts';
import { isValidMpanCore } from '../../shared/domain/mpan.ts';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
}, 170_000);

const METER_NAME = 'Aldgate House half-hourly electricity';

/** A valid MPAN core no demo meter has. */
function newMpan(taken: ReadonlySet<string>): string {
  for (let n = 1_900_000_000_000; ; n++) {
    const candidate = String(n);
    if (isValidMpanCore(candidate) && !taken.has(candidate)) return candidate;
  }
}

async function demoMeters(): Promise<StoredAccount[]> {
  const summary = env.stack.stack.seed?.summary as { companies?: { id: string; name: string }[] } | undefined;
  const demoId = summary?.companies?.find((c) => c.name === 'Demo Estates Ltd')?.id;
  if (!demoId) throw new Error('The demo company was not seeded');
  return allAccounts(demoId);
}

describe('the import wizard updating meters', () => {
  it('updates a meter named by its MPAN and creates a new one, previewed as update and create', async () => {
    const meters = await demoMeters();
    const existing = meters.find((m) => m.name === METER_NAME);
    if (!existing?.meterPointNumber) throw new Error(`The demo has no meter "${METER_NAME}" with an MPAN`);
    const fresh = newMpan(new Set(meters.map((m) => String(m.meterPointNumber ?? ''))));
    const csv = [
      'MPAN,Site,Type,Meter serial number,Name',
      `${existing.meterPointNumber},Aldgate House,electricity,E19Z 771201,Aldgate House incomer`,
      `${fresh},Aldgate House,electricity,E19Z 771202,Aldgate House EV chargers`,
    ].join('\r\n');

    await signIn(page, env.stack.origin, 'owner@demo.test', '/imports/wizard/upload');
    await page.getByLabel('What the file holds').first().click();
    await page.getByRole('option', { name: 'Meters', exact: true }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'meters.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();

    // The file's columns are suggested for the meter fields, the serial among them.
    await page.waitForURL(/\/imports\/wizard\/[0-9a-f]{24}\/mapping$/, { timeout: 60_000 });
    await expect
      .poll(() => page.getByLabel('Meter serial number').first().inputValue(), { timeout: 15_000 })
      .toBe('Meter serial number');
    await page.getByRole('radio', { name: 'Update existing, create new' }).check();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();

    await page.waitForURL(/\/preview$/, { timeout: 15_000 });
    const totals = page.getByLabel('Totals');
    await expect
      .poll(async () => (await totals.textContent()) ?? '', { timeout: 30_000 })
      .toContain('1 to create');
    expect(await totals.textContent()).toContain('1 to update');
    const rows = page.getByRole('table', { name: 'Rows' });
    const updated = rows.getByRole('row').filter({ hasText: 'update' });
    expect(await updated.textContent()).toMatch(/name.*meterSerialNumber|meterSerialNumber.*name/);
    expect(await rows.getByRole('row').filter({ hasText: 'create' }).count()).toBe(1);

    await page.getByRole('button', { name: /^Import 2 rows$/ }).click();
    await page.waitForURL(/\/import$/, { timeout: 15_000 });
    await expect
      .poll(async () => (await page.getByText('completed', { exact: true }).count()) > 0, {
        timeout: 90_000,
        interval: 1000,
      })
      .toBe(true);
    expect(await page.getByLabel('Totals').textContent()).toContain('1 to update');

    // The renamed meter shows its new name and serial on its own page.
    await page.goto(`${env.stack.origin}/assets/${existing.assetId}/accounts/${existing._id}/overview`);
    await expect
      .poll(async () => (await page.locator('main').textContent()) ?? '', { timeout: 20_000 })
      .toContain('Aldgate House incomer');
    const after = await demoMeters();
    expect(after.find((m) => m._id === existing._id)).toMatchObject({
      name: 'Aldgate House incomer',
      meterSerialNumber: 'E19Z 771201',
    });
    expect(after.find((m) => m.meterPointNumber === fresh)).toMatchObject({
      name: 'Aldgate House EV chargers',
      assetId: existing.assetId,
    });
  }, 240_000);
});
