import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;
const searches: string[] = [];

beforeAll(async () => {
  page = await env.browser.newPage();
  page.on('request', (request) => {
    if (request.url().includes('/api/global-search/')) searches.push(request.url());
  });
  await signIn(page, env.stack.origin, 'owner@demo.test');
}, 120_000);

describe('global search', () => {
  it('waits for 3 characters, then finds a site and leads to its overview', async () => {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const input = page.getByRole('searchbox', { name: 'Search entities, sites and accounts' });
    await input.pressSequentially('Ha', { delay: 50 });
    await page.waitForTimeout(1_000);
    expect(searches).toEqual([]);
    await page
      .getByText('Type at least 3 characters to search.')
      .waitFor({ state: 'visible', timeout: 10_000 });

    await input.pressSequentially('r', { delay: 50 });
    const assets = page.getByRole('region', { name: 'Assets' });
    const site = assets.getByRole('link', { name: /Hardman Court/ });
    await site.waitFor({ timeout: 10_000 });
    expect(searches).toHaveLength(1);
    expect(new URL(searches[0] ?? '').searchParams.get('query')).toBe('Har');

    await site.click();
    await page.waitForURL(/\/assets\/[^/]+\/overview$/);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('says so when nothing matches', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox', { name: 'Search entities, sites and accounts' }).fill('zzqqxxj');
    await expect
      .poll(() => page.getByText('No search results found.').isVisible(), { timeout: 10_000 })
      .toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('the notification bell', () => {
  it('shares the dashboard’s fetch of the latest unseen: one call at load, not one each', async () => {
    const calls: string[] = [];
    const count = (r: { url(): string; method(): string }) => {
      if (r.method() === 'GET' && r.url().includes('/api/users/me/notifications?isSeen=false'))
        calls.push(r.url());
    };
    page.on('request', count);
    await page.goto(`${env.stack.origin}/`);
    await page.getByText('Latest notifications').waitFor({ state: 'visible', timeout: 15_000 });
    const bell = page.getByRole('button', { name: /^Notifications \(\d+ unseen\)$/ });
    await bell.waitFor({ state: 'visible', timeout: 10_000 });
    // Past the bell's own first fetch (1 s after load).
    await page.waitForTimeout(2500);
    page.off('request', count);
    expect(calls).toHaveLength(1);
  });

  it('empties when Dismiss All is used, and stays empty after a reload', async () => {
    await page.goto(`${env.stack.origin}/`);
    const bell = page.getByRole('button', { name: /^Notifications \(\d+ unseen\)$/ });
    await expect
      .poll(async () => bell.getAttribute('aria-label'), { timeout: 10_000 })
      .not.toBe('Notifications (0 unseen)');
    await bell.click();
    await page.getByRole('button', { name: 'Dismiss All' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Notifications (0 unseen)' }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
    await page.getByRole('button', { name: 'Notifications (0 unseen)' }).click();
    await page.getByText('No pending notifications').first().waitFor({ state: 'visible', timeout: 10_000 });

    await page.reload();
    await expect
      .poll(() => page.getByRole('button', { name: 'Notifications (0 unseen)' }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
  });
});
