import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await env.browser.newPage();
  await signIn(page, env.stack.origin, 'user@demo.test', '/profile');
  await page.getByRole('heading', { name: 'Profile' }).waitFor({ timeout: 15_000 });
}, 120_000);

const shown = (text: string) => page.getByText(text, { exact: true }).first().isVisible();

describe('the profile page', () => {
  it('updates the user’s name, and the header shows it at once', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Uma Tester');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => shown('Details updated successfully!'), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'User menu' }).textContent())
      .toContain('Uma Tester');
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Name' }).inputValue(), { timeout: 15_000 })
      .toBe('Uma Tester');
  });

  it('says so when the details cannot be saved', async () => {
    await page.route('**/api/users/me', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"INTERNAL_ERROR"}' })
        : route.continue(),
    );
    await page.getByRole('textbox', { name: 'Name' }).fill('Nobody');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect
      .poll(() => shown('There was a problem updating your details.'), { timeout: 10_000 })
      .toBe(true);
    await page.unroute('**/api/users/me');
  });

  it('turns on API access and shows a new key once, with a copy button', async () => {
    await page.getByRole('button', { name: 'Turn on API access' }).click();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = page.getByTestId('api-key');
    await key.waitFor({ timeout: 10_000 });
    const value = ((await key.textContent()) ?? '').trim();
    expect(value).toMatch(/^vfk\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor({ state: 'visible', timeout: 10_000 });
    // The key works as the user.
    const me = await fetch(`${env.stack.apiUrl}/users/me`, { headers: { 'x-api-key': value } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'user@demo.test' });
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await key.count()).toBe(0);
    const prefix = value.split('.').slice(0, 2).join('.');
    await expect.poll(() => page.getByText(`${prefix}…`, { exact: false }).isVisible()).toBe(true);
    expect(await page.getByText(value).count()).toBe(0);
  });

  it('enrols an authenticator app with the QR code or the key, and removes it', async () => {
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor({ timeout: 10_000 });
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    await page.getByText(/^otpauth:\/\/totp\//).waitFor({ state: 'visible', timeout: 10_000 });

    await page.getByRole('textbox', { name: 'Code from the app' }).fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() => page.getByText('That code is not right', { exact: false }).isVisible())
      .toBe(true);

    await page.getByRole('textbox', { name: 'Code from the app' }).fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Remove authenticator app' }).waitFor({ timeout: 10_000 });
    // Removing it takes a code from the app as well.
    await page.getByRole('textbox', { name: 'Code from the app' }).fill('000000');
    await page.getByRole('button', { name: 'Remove authenticator app' }).click();
    await expect
      .poll(() => page.getByText('That code is not right', { exact: false }).isVisible())
      .toBe(true);
    await page.getByRole('textbox', { name: 'Code from the app' }).fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Remove authenticator app' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor({ timeout: 10_000 });
  });

  it('switches the interface to French when the user chooses it', async () => {
    await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'Tableau de bord' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await page
      .getByRole('heading', { name: 'Profil', exact: true })
      .waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  });
});
