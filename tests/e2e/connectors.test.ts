import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PORTAL } from '../../infra/local/fakes/demo-portals.ts';
import type { PortalAccount } from '../../infra/local/fakes/supplier-portal-server.ts';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
}, 170_000);

describe('connectors', () => {
  it('sets up a supplier-portal login and watches its run fetch the new bills', async () => {
    const connectors = env.stack.stack.connectors;
    const portal = connectors.portalAccount(DEMO_PORTAL.slug, DEMO_PORTAL.username) as PortalAccount;
    // The company changed its password on the portal: the login is set up again here.
    portal.password = 'Changed-Portal-Pw-7';
    await signIn(page, env.stack.origin, 'owner@demo.test', '/connectors/manage');
    const logins = page.getByRole('table', { name: 'Portal logins' });
    await expect
      .poll(() => logins.getByRole('row', { name: /British Gas Business/ }).count(), { timeout: 20_000 })
      .toBe(1);

    await page.getByRole('combobox', { name: 'Supplier' }).click();
    await page.getByRole('option', { name: 'British Gas Business' }).click();
    await page.getByRole('textbox', { name: 'User name' }).fill(DEMO_PORTAL.username);
    await page.getByLabel('Password', { exact: true }).fill('Changed-Portal-Pw-7');
    await page.getByRole('button', { name: 'Save login' }).click();
    await expect
      .poll(() => page.getByLabel('Password', { exact: true }).inputValue(), { timeout: 10_000 })
      .toBe('');
    await expect.poll(() => logins.getByRole('row', { name: /British Gas Business.*Set/ }).count()).toBe(1);

    // A slow portal, so the run is seen going before it ends.
    connectors.setPortalMode(DEMO_PORTAL.slug, 'slow', 1500);
    await logins.getByRole('button', { name: 'Run now' }).click();
    await page.goto(`${env.stack.origin}/connectors/runs`);
    const runs = page.getByRole('table', { name: 'Connector runs' });
    await runs.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => runs.getByTestId('run-status').first().textContent(), { timeout: 20_000 })
      .toMatch(/pending|running/);
    // No reload: the worker's live updates bring the end of the run.
    await expect
      .poll(() => runs.getByTestId('run-status').first().textContent(), { timeout: 90_000 })
      .toBe('succeeded');
    expect(await runs.getByTestId('run-fetched').first().textContent()).toBe('3');
    connectors.setPortalMode(DEMO_PORTAL.slug, 'up');

    await page.goto(`${env.stack.origin}/connectors/dashboard`);
    await expect
      .poll(() => page.getByRole('table', { name: 'Portal logins' }).getByText('succeeded').count(), {
        timeout: 20_000,
      })
      .toBe(1);
  }, 240_000);
});
