import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

const tab = openPagePerTest(env);

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
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/company/users');
    const users = tab.page.getByRole('table', { name: 'Users' });
    await users.waitFor({ timeout: 15_000 });
    expect(await users.textContent()).toContain('owner@demo.test');

    await tab.page.getByRole('link', { name: 'New user' }).click();
    await tab.page.waitForURL(/\/company\/users\/create$/);
    await tab.page.getByRole('button', { name: 'Create user' }).click();
    expect(await tab.page.getByText('This field is required').count()).toBe(2);

    await tab.page.getByRole('textbox', { name: /^Name/ }).fill('Rita Lowe');
    await tab.page.getByRole('textbox', { name: /^E-mail/ }).fill('rita.lowe@demo.test');
    const pick = tab.page.getByLabel('Add asset', { exact: true });
    await expect.poll(() => pick.locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(1);
    const site = (await pick.locator('option').nth(1).textContent()) ?? '';
    await pick.selectOption({ label: site });
    await tab.page.getByRole('button', { name: 'Grant asset' }).click();
    const granted = tab.page.getByRole('table', { name: 'Granted assets' });
    expect(await granted.textContent()).toContain(site);
    expect(await tab.page.getByLabel(`Access to ${site}`).inputValue()).toBe('read');
    await tab.page.getByRole('button', { name: 'Create user' }).click();

    await tab.page.waitForURL(/\/company\/users$/, { timeout: 15_000 });
    const row = tab.page.getByRole('row', { name: /rita\.lowe@demo\.test/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Rita Lowe');
    expect(await row.textContent()).toContain('1 asset');
    expect(await row.textContent()).not.toContain('write');

    await row.getByRole('link', { name: 'Edit Rita Lowe' }).click();
    await tab.page.waitForURL(/\/company\/users\/[^/]+\/edit$/);
    await tab.page.getByRole('table', { name: 'Granted assets' }).waitFor({ timeout: 15_000 });
    expect(await tab.page.getByLabel(`Access to ${site}`).inputValue()).toBe('read');

    await tab.page
      .getByRole('navigation', { name: 'Company administration' })
      .getByRole('link', { name: 'Activity Log' })
      .click();
    await tab.page.waitForURL(/\/company\/log$/);
    const log = tab.page.getByRole('table', { name: 'Activity log' });
    await log.waitFor({ timeout: 15_000 });
    const newest = log.locator('tbody tr').first();
    expect(await newest.textContent()).toContain('rita.lowe@demo.test added');
    expect(await newest.textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}Olivia Bennett/);
  });

  it('creates a role, then edits its name and permissions', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/company/roles/create');
    await tab.page.getByRole('textbox', { name: /^Name/ }).fill('Auditor');
    await tab.page.getByRole('checkbox', { name: 'company_log' }).check();
    await tab.page.getByRole('button', { name: 'Create role' }).click();
    await tab.page.waitForURL(/\/company\/roles$/, { timeout: 15_000 });

    await tab.page.getByRole('link', { name: 'Auditor', exact: true }).click();
    await tab.page.waitForURL(/\/company\/roles\/[^/]+\/edit$/);
    const name = tab.page.getByRole('textbox', { name: /^Name/ });
    await expect.poll(() => name.inputValue(), { timeout: 15_000 }).toBe('Auditor');
    expect(await tab.page.getByRole('checkbox', { name: 'company_log' }).isChecked()).toBe(true);
    await name.fill('Auditors');
    await tab.page.getByRole('checkbox', { name: 'bill_validation', exact: true }).check();
    await tab.page.getByRole('button', { name: 'Save role' }).click();

    await tab.page.waitForURL(/\/company\/roles$/, { timeout: 15_000 });
    const row = tab.page.getByRole('row', { name: /Auditors/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('bill_validation, company_log');
  });

  it('refuses a missing or too narrow logo and shows a wide one in the header', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/company/manage');
    const upload = tab.page.getByRole('button', { name: 'Upload logo' });
    await upload.waitFor({ timeout: 15_000 });
    await upload.click();
    await tab.page.getByText('Please submit a logo.', { exact: true }).waitFor();

    await tab.page.getByLabel('Calendar period').selectOption('Rail Calendar');
    const nameLength = tab.page.getByLabel('Invoice file name part length');
    expect(await nameLength.inputValue()).toBe('40');
    await nameLength.fill('5');
    await tab.page.getByRole('button', { name: 'Save settings' }).click();
    await tab.page.getByText('Must be at least 10', { exact: true }).waitFor({ timeout: 15_000 });
    await nameLength.fill('25');
    await tab.page.getByLabel('New document categories').fill('Lease');
    await tab.page.getByRole('button', { name: 'Add to document categories' }).click();
    await tab.page.getByRole('button', { name: 'Save settings' }).click();
    await tab.page.getByText('Company settings saved').waitFor({ timeout: 15_000 });
    await tab.page.reload();
    await expect
      .poll(() => tab.page.getByLabel('Calendar period').inputValue(), { timeout: 15_000 })
      .toBe('Rail Calendar');
    expect(await tab.page.getByRole('list', { name: 'Document categories' }).textContent()).toContain(
      'Lease',
    );
    expect(await tab.page.getByLabel('Invoice file name part length').inputValue()).toBe('25');

    const file = tab.page.getByLabel('Logo file');
    await file.setInputFiles({ name: 'narrow.png', mimeType: 'image/png', buffer: png(120, 40) });
    await upload.click();
    await tab.page.getByText('Must be at least 200px wide and .png format', { exact: true }).waitFor();

    await file.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: png(240, 40) });
    await upload.click();
    await tab.page.getByText('Logo updated').waitFor({ timeout: 15_000 });
    await tab.page.getByText('Powered By', { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(
      await tab.page.getByText('Must be at least 200px wide and .png format', { exact: true }).count(),
    ).toBe(0);
  });

  it('lets staff create a company and see it in the list of all companies', async () => {
    await signIn(tab.page, env.stack.origin, 'admin@voltfolio.test', '/companies/create');
    const all = tab.page.getByRole('table', { name: 'Companies' });
    await all.waitFor({ timeout: 15_000 });
    expect(await all.textContent()).not.toContain('Fenwick Estates');
    await tab.page.getByRole('textbox', { name: /^Company name/ }).fill('Fenwick Estates');
    await tab.page.getByLabel('Demo company').check();
    await tab.page.getByRole('button', { name: 'Create company' }).click();
    const row = all.getByRole('row', { name: /Fenwick Estates/ });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('Yes');
  });

  it('sends a company user away from the company settings', async () => {
    await signIn(tab.page, env.stack.origin, 'user@demo.test', '/company/manage');
    await tab.page.waitForURL(/\/forbidden$/, { timeout: 15_000 });
    await tab.page.getByText('Forbidden - You are not allowed to view this page...').waitFor();
  });
});
