import { readFile } from 'node:fs/promises';
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
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

beforeEach(async () => {
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

const visible = (text: string | RegExp, timeout = 15_000) =>
  expect.poll(() => page.getByText(text).first().isVisible(), { timeout }).toBe(true);

describe('the asset wizard', () => {
  it('shows the field error of a check, then creates the site, which the list then shows', async () => {
    const siteName = `Wizard House ${Date.now()}`;
    await signIn(page, stack.origin, 'owner@demo.test', '/assets/wizard');
    const entity = page.getByLabel('Entity');
    await expect
      .poll(() => entity.locator('option', { hasText: 'Demo Estates Offices Ltd' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await page.getByLabel('Site name').fill(siteName);
    await entity.selectOption({ label: 'Demo Estates Offices Ltd' });
    await page.getByLabel('Type of site').selectOption('Office');
    await page.getByLabel('Street address').fill('1 Poultry');
    await page.getByLabel('Town or city').fill('London');
    await page.getByLabel('Postcode').fill('NOT A POSTCODE');
    await page.getByLabel('Floor area').fill('1200');
    await page.getByRole('button', { name: 'Check details' }).click();

    await visible('There was a problem with some details entered below.');
    await visible('Must be a valid UK postcode');
    expect(await page.getByRole('button', { name: 'Create site' }).count()).toBe(0);

    await page.getByLabel('Postcode').fill('ec2r8ay');
    await page.getByRole('button', { name: 'Check details' }).click();
    await visible('These details are ready to be saved:');
    await visible('1 Poultry, London, EC2R 8AY');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/assets\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
    await expect
      .poll(() => page.getByRole('heading', { name: siteName }).isVisible(), { timeout: 15_000 })
      .toBe(true);

    await page.goto(`${stack.origin}/assets`);
    await page.getByLabel('Search sites').fill('Wizard House');
    const row = page.getByRole('row', { name: new RegExp(siteName) });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain('1,200 m²');
  });
});

describe('site documents', () => {
  it('uploads a document with progress to 100 and downloads the same file', async () => {
    await signIn(page, stack.origin, 'owner@demo.test', '/assets');
    const link = page.getByRole('link', { name: 'Aldgate House' });
    await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true);
    await link.click();
    await page.waitForURL(/\/overview$/);
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.waitForURL(/\/documents$/);

    const content = `Lease of Aldgate House, signed ${new Date().toISOString()}\n${'clause '.repeat(20_000)}`;
    const name = `Head lease ${Date.now()}`;
    // The documents page replaces the overview once its code has loaded; its own form takes the file.
    const form = page.getByRole('form', { name: 'Upload a document' });
    await expect.poll(() => form.isVisible(), { timeout: 15_000 }).toBe(true);
    await form.locator('input[type="file"]').setInputFiles({
      name: 'head-lease.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(content),
    });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Category').selectOption('Lease');
    await form.getByRole('button', { name: 'Upload', exact: true }).click();

    await visible('Uploaded 100%');
    const bar = page.getByRole('progressbar', { name: 'Document upload' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain('Lease');

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      row.getByRole('button', { name: `Download ${name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('head-lease.txt');
    expect(await readFile(await download.path(), 'utf8')).toBe(content);
  });
});
