import type { Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let kioskId: string;
let kioskAuth: string;
let siteName: string;
let assetId: string;
let machine: { machineId: string; key: string };

beforeAll(async () => {
  const { accessToken } = await signInForToken({
    baseUrl: env.stack.origin,
    email: 'owner@demo.test',
    password: DEMO_PASSWORD,
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${env.stack.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const assets = (await call('GET', '/assets?limit=1')).data as { _id: string; siteName: string }[];
  const asset = assets[0];
  if (!asset) throw new Error('The demo data has no asset');
  siteName = asset.siteName;
  assetId = asset._id;
  const made = await call('POST', '/machines', { name: 'Report renderer' });
  machine = { machineId: String(made.machineId), key: String(made.key) };
  const kiosk = await call('POST', '/kiosks', { name: 'Lobby screen', assetId: asset._id });
  kioskId = String(kiosk._id);
  kioskAuth = String(kiosk.kioskAuth);
}, 120_000);

const tab = openPagePerTest(env);

const kioskUrl = (auth: string, extra = '') =>
  `${env.stack.origin}/kiosk/${kioskId}?kioskAuth=${encodeURIComponent(auth)}${extra}`;

describe('the kiosk display', () => {
  it('shows the building and steps through its slides in order, with their subtitles', async () => {
    const calls: Request[] = [];
    tab.page.on('request', (r) => {
      if (r.url().includes('/api/kiosks/live')) calls.push(r);
    });
    await tab.page.goto(kioskUrl(kioskAuth, '&preview'));
    await tab.page.getByRole('heading', { name: siteName }).waitFor({ timeout: 15_000 });
    await tab.page.getByText('Preview', { exact: true }).waitFor({ state: 'visible', timeout: 10_000 });

    const seen: [string, string][] = [];
    for (let i = 0; i < 5; i++) {
      const slide = tab.page.locator('section[aria-roledescription="slide"]');
      const title = (await slide.getByRole('heading', { level: 2 }).textContent()) ?? '';
      const subtitle = (await slide.locator('p').first().textContent()) ?? '';
      seen.push([title, subtitle]);
      await tab.page.getByRole('button', { name: 'Next slide' }).click();
    }
    expect(seen).toEqual([
      ['Leaderboard', 'See how your floor is doing compared to others'],
      ['Consumption', "This building's energy consumption"],
      ['News', 'News, weather and travel for your area'],
      ['Energy Usage', 'Recent electricity consumption of this building'],
      ['Carbon', "This building's CO2 emission data"],
    ]);

    expect([...new Set(calls.map((r) => new URL(r.url()).pathname))].sort()).toEqual([
      '/api/kiosks/live',
      '/api/kiosks/live/consumption',
      '/api/kiosks/live/news',
    ]);
    for (const call of calls) {
      const headers = await call.allHeaders();
      expect(headers['x-kiosk-key']).toBe(kioskAuth.replace('|', ':'));
      expect(headers['x-kiosk-preview']).toBe('true');
      expect(headers.authorization).toBeUndefined();
      expect((await call.response())?.status()).toBe(200);
    }
  });

  it('shows the building’s latest month of consumption from the live data', async () => {
    const res = await fetch(`${env.stack.apiUrl}/kiosks/live/consumption`, {
      headers: { 'x-kiosk-key': kioskAuth.replace('|', ':') },
    });
    const live = (await res.json()) as { data: { consumption: number; unit: string }[] };
    const first = live.data[0];
    if (!first) throw new Error('The demo site has no consumption');
    await tab.page.goto(kioskUrl(kioskAuth, '&preview'));
    await tab.page.getByRole('heading', { name: siteName }).waitFor({ timeout: 15_000 });
    await tab.page.getByRole('button', { name: 'Next slide' }).click();
    const slide = tab.page.locator('section[aria-roledescription="slide"]');
    const figure = `${Math.round(first.consumption).toLocaleString('en-GB')} ${first.unit}`;
    await expect.poll(() => slide.getByText(figure).first().isVisible()).toBe(true);
  });

  it('keeps showing its last data with their time when the network drops, and recovers', async () => {
    await tab.page.setViewportSize({ width: 1920, height: 1080 });
    await tab.page.goto(kioskUrl(kioskAuth, '&preview'));
    await tab.page.getByRole('heading', { name: siteName }).waitFor({ timeout: 15_000 });
    await tab.page.getByRole('button', { name: 'Next slide' }).click();
    await tab.page.getByRole('button', { name: 'Next slide' }).click();
    const slide = tab.page.locator('section[aria-roledescription="slide"]');
    await slide.getByText('Central line: minor delays').waitFor({ timeout: 15_000 });

    await tab.context.setOffline(true);
    const badge = tab.page.getByRole('status').filter({ hasText: 'Offline: showing data from' });
    await badge.waitFor({ timeout: 10_000 });
    // The screen still shows what it had, and fits the screen without scrolling.
    expect(await slide.getByText('Central line: minor delays').isVisible()).toBe(true);
    const fits = await tab.page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
    expect(fits).toBe(true);
    const asked: string[] = [];
    tab.page.on('request', (r) => {
      if (r.url().includes('/api/kiosks/live')) asked.push(r.url());
    });

    await tab.context.setOffline(false);
    await badge.waitFor({ state: 'detached', timeout: 20_000 });
    // The badge may go with the browser's online event, a moment before the refetch leaves.
    await expect.poll(() => asked.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await tab.page.getByRole('heading', { name: siteName }).isVisible()).toBe(true);
  });

  it('fits a portrait screen', async () => {
    await tab.page.setViewportSize({ width: 1080, height: 1920 });
    await tab.page.goto(kioskUrl(kioskAuth, '&preview'));
    await tab.page.getByRole('heading', { name: siteName }).waitFor({ timeout: 15_000 });
    const fits = await tab.page.evaluate(
      () =>
        document.documentElement.scrollHeight <= window.innerHeight &&
        document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(fits).toBe(true);
  });

  it('sends a screen with a wrong secret to the error page', async () => {
    await tab.page.goto(kioskUrl(`${kioskId}|not-the-secret`));
    await tab.page.waitForURL((url) => url.pathname === '/kiosk/error', { timeout: 15_000 });
    const url = new URL(tab.page.url());
    expect(url.searchParams.get('code')).toBe('INVALID_AUTH');
    await tab.page
      .getByText('Oops! Something has gone wrong...')
      .waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('says clearly when its data cannot be loaded', async () => {
    await tab.page.route('**/api/kiosks/live', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service Unavailable"}',
      }),
    );
    await tab.page.goto(kioskUrl(kioskAuth));
    await expect
      .poll(() => tab.page.getByText('This display could not be loaded').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await tab.page
      .getByRole('button', { name: 'Try again now' })
      .waitFor({ state: 'visible', timeout: 10_000 });
  });
});

describe('the machine views', () => {
  it('show a site with the machine id and key stored in the browser', async () => {
    await tab.page.goto(`${env.stack.origin}/m2m/error`);
    await tab.page.evaluate(({ machineId, key }) => {
      localStorage.setItem('voltfolio.machineId', machineId);
      localStorage.setItem('voltfolio.machineKey', key);
    }, machine);
    const calls: Request[] = [];
    tab.page.on('request', (r) => {
      if (r.url().includes('/api/')) calls.push(r);
    });
    await tab.page.goto(`${env.stack.origin}/m2m/pdf?assetId=${assetId}`);
    await tab.page.getByRole('heading', { name: siteName }).waitFor({ timeout: 15_000 });
    expect(new URL(tab.page.url()).pathname).toBe('/m2m/pdf');
    for (const call of calls) {
      const headers = await call.allHeaders();
      expect(headers['x-key']).toBe(`${machine.machineId}:${machine.key}`);
      expect(headers.authorization).toBeUndefined();
    }
    expect(calls.map((c) => new URL(c.url()).pathname)).toEqual(['/api/users/me', `/api/assets/${assetId}`]);
  });
});
