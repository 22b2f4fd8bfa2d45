import { crc32, deflateSync } from 'node:zlib';
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
}, 180_000);

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

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real grey PNG the browser can decode. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('company administration', () => {
  it('creates a user with a read grant on one asset, then lists them', async () => {
    await signIn(page, stack.origin, 'owner@demo.test', '/company/users');
    const users = page.getByRole('table', { name: 'Users' });
    await users.waitFor({ timeout: 15_000 });
    expect(await users.textContent()).toContain('owner@demo.test');

    await page.getByRole('link', { name: 'New user' }).click();
    await page.waitForURL(/\/company\/users\/create$/);
    await page.getByRole('button', { name: 'Create user' }).click();
    expect(await page.getByText('This field is required').count()).toBe(2);

    await page.getByRole('textbox', { name: /^Name/ }).fill('Rita Lowe');
    await page.getByRole('textbox', { name: /^E-mail/ }).fill('rita.lowe@demo.test');
    const pick = page.getByLabel('Add asset', { exact: true });
    await expect.poll(() => pick.locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(1);
    const site = (await pick.locator('option').nth(1).textContent()) ?? '';
    await pick.selectOption({ label: site });
    await page.getByRole('button', { name: 'Grant asset' }).click();
    const granted = page.getByRole('table', { name: 'Granted assets' });
    expect(await granted.textContent()).toContain(site);
    expect(await page.getByLabel(`Access to ${site}`).inputValue()).toBe('read');
    await page.getByRole('button', { name: 'Create user' }).click();

    await page.waitForURL(/\/company\/users$/, { timeout: 15_000 });
    const row = page.getByRole('row', { name: /rita\.lowe@demo\.test/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Rita Lowe');
    expect(await row.textContent()).toContain('1 asset');
    expect(await row.textContent()).not.toContain('write');

    await row.getByRole('link', { name: 'Edit Rita Lowe' }).click();
    await page.waitForURL(/\/company\/users\/[^/]+\/edit$/);
    await page.getByRole('table', { name: 'Granted assets' }).waitFor({ timeout: 15_000 });
    expect(await page.getByLabel(`Access to ${site}`).inputValue()).toBe('read');

    await page
      .getByRole('navigation', { name: 'Company administration' })
      .getByRole('link', { name: 'Activity Log' })
      .click();
    await page.waitForURL(/\/company\/log$/);
    const log = page.getByRole('table', { name: 'Activity log' });
    await log.waitFor({ timeout: 15_000 });
    const newest = log.locator('tbody tr').first();
    expect(await newest.textContent()).toContain('rita.lowe@demo.test added');
    expect(await newest.textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}Olivia Bennett/);
  });

  it('creates a role, then edits its name and permissions', async () => {
    await signIn(page, stack.origin, 'owner@demo.test', '/company/roles/create');
    await page.getByRole('textbox', { name: /^Name/ }).fill('Auditor');
    await page.getByRole('checkbox', { name: 'company_log' }).check();
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.waitForURL(/\/company\/roles$/, { timeout: 15_000 });

    await page.getByRole('link', { name: 'Auditor', exact: true }).click();
    await page.waitForURL(/\/company\/roles\/[^/]+\/edit$/);
    const name = page.getByRole('textbox', { name: /^Name/ });
    await expect.poll(() => name.inputValue(), { timeout: 15_000 }).toBe('Auditor');
    expect(await page.getByRole('checkbox', { name: 'company_log' }).isChecked()).toBe(true);
    await name.fill('Auditors');
    await page.getByRole('checkbox', { name: 'bill_validation', exact: true }).check();
    await page.getByRole('button', { name: 'Save role' }).click();

    await page.waitForURL(/\/company\/roles$/, { timeout: 15_000 });
    const row = page.getByRole('row', { name: /Auditors/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('bill_validation, company_log');
  });

  it('refuses a missing or too narrow logo and shows a wide one in the header', async () => {
    await signIn(page, stack.origin, 'owner@demo.test', '/company/manage');
    const upload = page.getByRole('button', { name: 'Upload logo' });
    await upload.waitFor({ timeout: 15_000 });
    await upload.click();
    await page.getByText('Please submit a logo.', { exact: true }).waitFor();

    await page.getByLabel('Calendar period').selectOption('Rail Calendar');
    const nameLength = page.getByLabel('Invoice file name part length');
    expect(await nameLength.inputValue()).toBe('40');
    await nameLength.fill('5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Must be at least 10', { exact: true }).waitFor({ timeout: 15_000 });
    await nameLength.fill('25');
    await page.getByLabel('New document categories').fill('Lease');
    await page.getByRole('button', { name: 'Add to document categories' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Company settings saved').waitFor({ timeout: 15_000 });
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Calendar period').inputValue(), { timeout: 15_000 })
      .toBe('Rail Calendar');
    expect(await page.getByRole('list', { name: 'Document categories' }).textContent()).toContain('Lease');
    expect(await page.getByLabel('Invoice file name part length').inputValue()).toBe('25');

    const file = page.getByLabel('Logo file');
    await file.setInputFiles({ name: 'narrow.png', mimeType: 'image/png', buffer: png(120, 40) });
    await upload.click();
    await page.getByText('Must be at least 200px wide and .png format', { exact: true }).waitFor();

    await file.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: png(240, 40) });
    await upload.click();
    await page.getByText('Logo updated').waitFor({ timeout: 15_000 });
    await page.getByText('Powered By', { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText('Must be at least 200px wide and .png format', { exact: true }).count()).toBe(
      0,
    );
  });

  it('lets staff create a company and see it in the list of all companies', async () => {
    await signIn(page, stack.origin, 'admin@voltfolio.test', '/companies/create');
    const all = page.getByRole('table', { name: 'Companies' });
    await all.waitFor({ timeout: 15_000 });
    expect(await all.textContent()).not.toContain('Fenwick Estates');
    await page.getByRole('textbox', { name: /^Company name/ }).fill('Fenwick Estates');
    await page.getByLabel('Demo company').check();
    await page.getByRole('button', { name: 'Create company' }).click();
    const row = all.getByRole('row', { name: /Fenwick Estates/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Yes');
  });

  it('sends a company user away from the company settings', async () => {
    await signIn(page, stack.origin, 'user@demo.test', '/company/manage');
    await page.waitForURL(/\/forbidden$/, { timeout: 15_000 });
    await page.getByText('Forbidden - You are not allowed to view this page...').waitFor();
  });
});
