import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { dateRangePresets } from '../../web/lib/date-presets.ts';
import { DEMO_PASSWORD, signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const env = startBrowserStack();

const tab = openPagePerTest(env);

describe('signing in', () => {
  it('shows /login with its text, then goes to the provider after 3 seconds', async () => {
    await tab.page.goto(`${env.stack.origin}/login`);
    await expect.poll(() => tab.page.getByText('Redirecting in 3 seconds...').isVisible()).toBe(true);
    const started = Date.now();
    await tab.page.waitForURL(/\/oidc\//, { timeout: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  });

  it('brings the company owner to the dashboard of their company, with the demo banner', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test');
    await tab.page
      .getByRole('heading', { level: 2, name: 'Demo Estates Ltd' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    // The dashboard's own content, not only the header: the site count of the seeded company.
    await expect
      .poll(() => tab.page.getByLabel('Total sites', { exact: true }).textContent(), { timeout: 15_000 })
      .toMatch(/^[1-9]\d*$/);
    await tab.page.getByText('TESTING ENVIRONMENT').waitFor({ state: 'visible', timeout: 10_000 });
    expect(new URL(tab.page.url()).pathname).toBe('/');
  });

  it('brings an API-only user to their profile, with no search and no sidebar items', async () => {
    await signIn(tab.page, env.stack.origin, 'api@demo.test');
    await tab.page.waitForURL((url) => url.pathname === '/profile', { timeout: 15_000 });
    await tab.page.getByRole('heading', { level: 2, name: 'Profile' }).waitFor({ state: 'visible' });
    await tab.page.getByRole('button', { name: 'User menu' }).waitFor({ state: 'visible' });
    expect(await tab.page.getByRole('button', { name: 'Search', exact: true }).count()).toBe(0);
    expect(await tab.page.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(0);
    // Their own sign-in shows search to everyone else.
    const other = await env.browser.newContext();
    try {
      const page = await other.newPage();
      await signIn(page, env.stack.origin, 'asset@demo.test');
      await page
        .getByRole('button', { name: 'Search', exact: true })
        .waitFor({ state: 'visible', timeout: 15_000 });
    } finally {
      await other.close();
    }
  });

  it('returns the user to the page they asked for', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/notifications');
    expect(new URL(tab.page.url()).pathname).toBe('/notifications');
  });
});

describe('the user menu', () => {
  const openMenu = async () => {
    const button = tab.page.getByRole('button', { name: 'User menu' });
    await button.waitFor({ state: 'visible', timeout: 15_000 });
    await button.click();
  };

  it('shows the app version, and no company switcher to a member of one company', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test');
    await openMenu();
    await tab.page.getByText(`Version ${packageVersion}`).waitFor({ state: 'visible' });
    expect(await tab.page.getByText('Switch company').count()).toBe(0);
  });

  it('switches a member of two companies into the other company and its data', async () => {
    await signIn(tab.page, env.stack.origin, 'multi@demo.test', '/assets');
    await tab.page.getByLabel('Search sites').fill('Temple Quay', { timeout: 15_000 });
    await expect
      .poll(() => tab.page.getByRole('link', { name: 'Temple Quay Point' }).first().isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await openMenu();
    await tab.page.getByText('Switch company').waitFor({ state: 'visible' });
    await tab.page.getByText(`Version ${packageVersion}`).waitFor({ state: 'visible' });
    await tab.page.getByRole('button', { name: 'Northwind Property Co' }).click();
    // Signed in again, back on the same page, with the other company's sites only.
    await expect
      .poll(() => tab.page.getByRole('link', { name: 'Kings Road Offices' }).first().isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(new URL(tab.page.url()).pathname).toBe('/assets');
    expect(await tab.page.getByRole('link', { name: 'Temple Quay Point' }).count()).toBe(0);
    await tab.page
      .getByRole('heading', { name: 'Northwind Property Co' })
      .first()
      .waitFor({ state: 'visible' });
  });

  it('logs out: the session call is ended, and so is the provider session', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test');
    await tab.page.getByRole('button', { name: 'User menu' }).waitFor({ state: 'visible', timeout: 15_000 });
    const ended = tab.page.waitForRequest(
      (request) => request.method() === 'DELETE' && new URL(request.url()).pathname.endsWith('/sessions'),
      { timeout: 15_000 },
    );
    await tab.page.goto(`${env.stack.origin}/logout`);
    expect((await (await ended).response())?.status()).toBe(204);
    await tab.page.waitForURL((url) => url.origin === env.stack.origin && url.pathname === '/', {
      timeout: 15_000,
    });
    // Without a provider session, the app asks for the password again rather than signing back in.
    await tab.page.goto(`${env.stack.origin}/profile`);
    await tab.page.getByLabel(/password/i).waitFor({ state: 'visible', timeout: 15_000 });
  });
});

describe('permissions in the browser', () => {
  it('hides admin items from a user with two sites, and sends them to /forbidden from /admin', async () => {
    await signIn(tab.page, env.stack.origin, 'asset@demo.test');
    await expect
      .poll(() => tab.page.getByRole('link', { name: 'Sites', exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await tab.page.getByRole('link', { name: 'Admin Overview', exact: true }).count()).toBe(0);
    expect(await tab.page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
    await tab.page.goto(`${env.stack.origin}/admin`);
    await tab.page.waitForURL(/\/forbidden$/);
    // The address changes before the page has rendered.
    await expect
      .poll(() => tab.page.getByText('Forbidden - You are not allowed to view this page...').isVisible())
      .toBe(true);
  });

  it('shows an unknown path as "Something went wrong..." with Go Back', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test');
    await tab.page.goto(`${env.stack.origin}/no/such/page`);
    await expect
      .poll(() => tab.page.getByText('Something went wrong...').isVisible(), { timeout: 10_000 })
      .toBe(true);
    await tab.page.getByRole('button', { name: 'Go Back' }).waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('goes back to the previous page from an unknown path', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/profile');
    await tab.page
      .getByRole('heading', { level: 2, name: 'Profile' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await tab.page.goto(`${env.stack.origin}/no/such/page`);
    await tab.page.getByRole('button', { name: 'Go Back' }).click({ timeout: 15_000 });
    await tab.page.waitForURL((url) => url.pathname === '/profile', { timeout: 10_000 });
    await tab.page
      .getByRole('heading', { level: 2, name: 'Profile' })
      .waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('shows an area page opened by its address inside the shell', async () => {
    await signIn(tab.page, env.stack.origin, 'admin@voltfolio.test', '/reports/dynamic');
    await tab.page.getByRole('heading', { name: 'Explore the figures' }).waitFor({ timeout: 15_000 });
    expect(await tab.page.getByText('not available yet').count()).toBe(0);
    expect(await tab.page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await tab.page.getByRole('button', { name: 'User menu' }).isVisible()).toBe(true);
    expect(await tab.page.getByText('Something went wrong...').count()).toBe(0);
  });
});

describe('periods', () => {
  it('picks a meter’s consumption period from the presets, and shows the range it stands for', async () => {
    const { accessToken } = await signInForToken({
      baseUrl: env.stack.origin,
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
    });
    const list = (await (
      await fetch(`${env.stack.apiUrl}/accounts?limit=1`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).json()) as { data: { _id: string; assetId: string }[] };
    const account = list.data[0];
    expect(account).toBeDefined();
    await signIn(
      tab.page,
      env.stack.origin,
      'owner@demo.test',
      `/assets/${account?.assetId}/accounts/${account?._id}/consumption`,
    );
    // Exact: the consumption table's own name ("Consumption by period") holds the word too.
    const period = tab.page.getByLabel('Period', { exact: true });
    // The page opens on the last 12 calendar months, and says so.
    await expect.poll(() => period.inputValue(), { timeout: 15_000 }).toBe('last-12-calendar-months');
    const lastMonth = dateRangePresets().find((p) => p.key === 'last-month');
    await period.selectOption({ label: 'Last month' });
    await expect.poll(() => tab.page.getByLabel('From', { exact: true }).inputValue()).toBe(lastMonth?.start);
    await expect.poll(() => tab.page.getByLabel('To', { exact: true }).inputValue()).toBe(lastMonth?.end);
    // A day typed in by hand is no preset any more.
    await tab.page.getByLabel('From', { exact: true }).fill('2020-01-15');
    await expect.poll(() => period.inputValue()).toBe('');
  });
});
