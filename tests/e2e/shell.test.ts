import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { launchBrowser, signIn } from './support/browser.ts';

let stack: LocalStackHandle;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startLocalStack({ seed: true, web: 'build' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

describe('signing in', () => {
  it('shows /login with its text, then goes to the provider after 3 seconds', async () => {
    await page.goto(`${stack.origin}/login`);
    await expect.poll(() => page.getByText('Redirecting in 3 seconds...').isVisible()).toBe(true);
    const started = Date.now();
    await page.waitForURL(/\/oidc\//, { timeout: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  });

  it('brings the company owner to the dashboard of their company, with the demo banner', async () => {
    await signIn(page, stack.origin, 'owner@demo.test');
    await expect
      .poll(() => page.getByText('Demo Estates Ltd').first().isVisible(), { timeout: 15_000 })
      .toBe(true);
    await page.getByText('TESTING ENVIRONMENT').waitFor({ state: 'visible', timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('returns the user to the page they asked for', async () => {
    await signIn(page, stack.origin, 'owner@demo.test', '/notifications');
    expect(new URL(page.url()).pathname).toBe('/notifications');
  });
});

describe('permissions in the browser', () => {
  it('hides admin items from a user with two sites, and sends them to /forbidden from /admin', async () => {
    await signIn(page, stack.origin, 'asset@demo.test');
    await expect
      .poll(() => page.getByRole('link', { name: 'Sites', exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByRole('link', { name: 'Admin Overview', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
    await page.goto(`${stack.origin}/admin`);
    await page.waitForURL(/\/forbidden$/);
    // The address changes before the page has rendered.
    await expect
      .poll(() => page.getByText('Forbidden - You are not allowed to view this page...').isVisible())
      .toBe(true);
  });

  it('shows an unknown path as "Something went wrong..." with Go Back', async () => {
    await signIn(page, stack.origin, 'owner@demo.test');
    await page.goto(`${stack.origin}/no/such/page`);
    await expect
      .poll(() => page.getByText('Something went wrong...').isVisible(), { timeout: 10_000 })
      .toBe(true);
    await page.getByRole('button', { name: 'Go Back' }).waitFor({ state: 'visible', timeout: 10_000 });
  });
});
