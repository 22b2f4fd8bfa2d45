import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PORTAL } from '../../infra/local/fakes/demo-portals.ts';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
}, 170_000);

describe('automation', () => {
  it('adds a portal-bills automation, runs it and watches the run end with the bills and its summary', async () => {
    await signIn(page, env.stack.origin, 'owner@demo.test', '/automation/manage');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('British Gas bills');
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'Fetch bills from a supplier portal' }).click();
    await page.getByRole('combobox', { name: 'Supplier' }).click();
    await page.getByRole('option', { name: DEMO_PORTAL.supplierName }).click();
    await page.getByRole('button', { name: 'Add automation' }).click();
    const table = page.getByRole('table', { name: 'Automations' });
    const row = table.getByRole('row', { name: /British Gas bills/ });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.textContent()).toContain('Never');

    // A slow portal, so the run is seen going before it ends.
    env.stack.stack.connectors.setPortalMode(DEMO_PORTAL.slug, 'slow', 1500);
    await row.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => page.getByText('British Gas bills is running.').count()).toBe(1);
    await page.getByRole('link', { name: 'See runs' }).click();
    const runs = page.getByRole('table', { name: 'Automation runs' });
    await runs.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => runs.getByTestId('automation-run-status').first().textContent(), { timeout: 20_000 })
      .toMatch(/pending|running/);
    // No reload: the worker's live updates bring the end of the run.
    await expect
      .poll(() => runs.getByTestId('automation-run-status').first().textContent(), { timeout: 90_000 })
      .toBe('succeeded');
    env.stack.stack.connectors.setPortalMode(DEMO_PORTAL.slug, 'up');
    expect(await runs.getByTestId('automation-run-fetched').first().textContent()).toBe('3');
    const summary = runs.getByRole('button', { name: /^automation-run-.*\.csv$/ });
    expect(await summary.count()).toBe(1);

    await page.goto(`${env.stack.origin}/automation/manage`);
    await expect
      .poll(
        () =>
          table
            .getByRole('row', { name: /British Gas bills/ })
            .getByText('succeeded')
            .count(),
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
  }, 240_000);
});
