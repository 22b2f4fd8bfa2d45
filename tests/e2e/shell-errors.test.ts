import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext();
  return { context, page: await context.newPage() };
}

const visible = (page: Page, text: string) => page.getByText(text, { exact: false }).first().isVisible();

describe('kiosk and machine error pages', () => {
  it('show the code and data of the query, and tell a kiosk to be unplugged', async () => {
    const { context, page } = await fresh();
    await page.goto(
      `${env.stack.origin}/kiosk/error?code=INVALID_AUTH&data=The%20kiosk%20key%20is%20not%20valid`,
    );
    await expect.poll(() => visible(page, 'Oops! Something has gone wrong...')).toBe(true);
    await page.getByText('INVALID_AUTH').waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByText('The kiosk key is not valid').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await visible(page, 'unplug the device')).toBe(true);

    await page.goto(`${env.stack.origin}/m2m/error?code=AUTH_ERROR&data=401`);
    await expect.poll(() => page.getByText('AUTH_ERROR').isVisible()).toBe(true);
    expect(await visible(page, 'unplug the device')).toBe(false);
    await context.close();
  });

  it('catch a kiosk address without a valid kioskAuth, and a machine without stored keys', async () => {
    const { context, page } = await fresh();
    await page.goto(`${env.stack.origin}/kiosk/k1?kioskAuth=no-bar-here`);
    await page.waitForURL((url) => url.pathname === '/kiosk/error');
    expect(new URL(page.url()).searchParams.get('code')).toBe('INVALID_AUTH');
    await expect.poll(() => page.getByText('INVALID_AUTH').isVisible()).toBe(true);

    await page.goto(`${env.stack.origin}/m2m/asset`);
    await page.waitForURL((url) => url.pathname === '/m2m/error');
    expect(new URL(page.url()).searchParams.get('code')).toBe('INVALID_STORAGE');

    await page.evaluate(() => {
      localStorage.setItem('voltfolio.machineId', 'unknown-machine');
      localStorage.setItem('voltfolio.machineKey', 'wrong-key');
    });
    await page.goto(`${env.stack.origin}/m2m/pdf`);
    await page.waitForURL(
      (url) => url.pathname === '/m2m/error' && url.searchParams.get('code') === 'AUTH_ERROR',
    );
    expect(new URL(page.url()).searchParams.get('data')).toBe('401');
    await context.close();
  });
});

describe('errors in the signed-in app', () => {
  let context: BrowserContext;
  let page: Page;
  const reports: Request[] = [];

  beforeAll(async () => {
    context = await env.browser.newContext();
    // This browser session is one of the sampled ones, so anything reportable is sent.
    await context.addInitScript(() => sessionStorage.setItem('voltfolio.errorReporting', 'on'));
    page = await context.newPage();
    page.on('request', (request) => {
      if (request.url().endsWith('/api/client-errors')) reports.push(request);
    });
    await signIn(page, env.stack.origin, 'user@demo.test');
  }, 60_000);

  afterAll(async () => context?.close());

  it('shows the new-version box when a part of the app cannot load, without reporting it', async () => {
    await expect
      .poll(() => page.getByRole('button', { name: 'User menu' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    // The server now holds another build: the chunks this page has not loaded yet are gone.
    await page.route(/\/assets\/.*\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page
      .getByRole('button', { name: 'Profile' })
      .or(page.getByRole('link', { name: 'Profile' }))
      .first()
      .click();
    await expect
      .poll(() => visible(page, 'new version available, click to refresh'), { timeout: 10_000 })
      .toBe(true);
    await page.waitForTimeout(1_000);
    expect(reports).toHaveLength(0);

    await page.unroute(/\/assets\/.*\.js$/);
    await page.getByRole('button', { name: 'new version available, click to refresh' }).first().click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Profile' }).isVisible(), { timeout: 15_000 })
      .toBe(true);
  });

  it('reports an uncaught error to the API', async () => {
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/client-errors'), { timeout: 10_000 });
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('Shell test failure');
      }, 0);
    });
    const request = await sent;
    expect(request.postDataJSON()).toMatchObject({
      kind: 'error',
      message: 'Error: Shell test failure',
      release: '1.95.1',
    });
    expect((await request.response())?.status()).toBe(202);
  });
});
