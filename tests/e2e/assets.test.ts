import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

const tab = openPagePerTest(env, { acceptDownloads: true });

const visible = (text: string | RegExp, timeout = 15_000) =>
  expect.poll(() => tab.page.getByText(text).first().isVisible(), { timeout }).toBe(true);

describe('the asset wizard', () => {
  it('shows the field error of a check, then creates the site, which the list then shows', async () => {
    const siteName = `Wizard House ${Date.now()}`;
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/assets/wizard');
    const entity = tab.page.getByLabel('Entity');
    await expect
      .poll(() => entity.locator('option', { hasText: 'Demo Estates Offices Ltd' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await tab.page.getByLabel('Site name').fill(siteName);
    await entity.selectOption({ label: 'Demo Estates Offices Ltd' });
    await tab.page.getByLabel('Type of site').selectOption('Office');
    await tab.page.getByLabel('Street address').fill('1 Poultry');
    await tab.page.getByLabel('Town or city').fill('London');
    await tab.page.getByLabel('Postcode').fill('NOT A POSTCODE');
    await tab.page.getByLabel('Floor area').fill('1200');
    await tab.page.getByRole('button', { name: 'Check details' }).click();

    await visible('There was a problem with some details entered below.');
    await visible('Must be a valid UK postcode');
    expect(await tab.page.getByRole('button', { name: 'Create site' }).count()).toBe(0);

    await tab.page.getByLabel('Postcode').fill('ec2r8ay');
    await tab.page.getByRole('button', { name: 'Check details' }).click();
    await visible('These details are ready to be saved:');
    await visible('1 Poultry, London, EC2R 8AY');
    await tab.page.getByRole('button', { name: 'Create site' }).click();
    await tab.page.waitForURL(/\/assets\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
    await expect
      .poll(() => tab.page.getByRole('heading', { name: siteName }).isVisible(), { timeout: 15_000 })
      .toBe(true);

    await tab.page.goto(`${env.stack.origin}/assets`);
    await tab.page.getByLabel('Search sites').fill('Wizard House');
    const row = tab.page.getByRole('row', { name: new RegExp(siteName) });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain('1,200 m²');
  });
});

describe('site documents', () => {
  it('uploads a document with progress to 100 and downloads the same file', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/assets');
    const link = tab.page.getByRole('link', { name: 'Aldgate House' });
    await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true);
    await link.click();
    await tab.page.waitForURL(/\/overview$/);
    await tab.page.getByRole('link', { name: 'Documents' }).click();
    await tab.page.waitForURL(/\/documents$/);

    const content = `Lease of Aldgate House, signed ${new Date().toISOString()}\n${'clause '.repeat(20_000)}`;
    const name = `Head lease ${Date.now()}`;
    // The documents page replaces the overview once its code has loaded; its own form takes the file.
    const form = tab.page.getByRole('form', { name: 'Upload a document' });
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
    const bar = tab.page.getByRole('progressbar', { name: 'Document upload' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    const row = tab.page.getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain('Lease');

    const [download] = await Promise.all([
      tab.page.waitForEvent('download', { timeout: 15_000 }),
      row.getByRole('button', { name: `Download ${name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('head-lease.txt');
    expect(await readFile(await download.path(), 'utf8')).toBe(content);
  });
});

describe('editing what a site records', () => {
  it('edits a tenant and a status change in place', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/assets');
    await tab.page.getByLabel('Search sites').fill('Temple Quay Point');
    const site = tab.page.getByRole('link', { name: 'Temple Quay Point' });
    await expect.poll(() => site.isVisible(), { timeout: 15_000 }).toBe(true);
    await site.click();
    const tabs = tab.page.getByRole('navigation', { name: 'Site pages' });
    await tabs.getByRole('link', { name: 'Tenants' }).click();

    await tab.page.getByLabel('Name').fill('Harbour Legal LLP');
    await tab.page.getByLabel('Unit').fill('Floor 2');
    await tab.page.getByRole('button', { name: 'Add tenant' }).click();
    const tenant = tab.page.getByRole('row', { name: /Harbour Legal LLP/ });
    await expect.poll(() => tenant.isVisible(), { timeout: 15_000 }).toBe(true);
    await tab.page.getByRole('button', { name: 'Edit Harbour Legal LLP' }).click();
    expect(await tab.page.getByLabel('Unit').inputValue()).toBe('Floor 2');
    await tab.page.getByLabel('Unit').fill('Floors 2 and 3');
    await tab.page.getByLabel('Floor area (m²)').fill('450');
    await tab.page.getByRole('button', { name: 'Save tenant' }).click();
    await expect.poll(() => tenant.textContent(), { timeout: 15_000 }).toContain('Floors 2 and 3');
    expect(await tenant.textContent()).toContain('450 m²');
    expect(await tab.page.getByRole('row', { name: /Harbour Legal LLP/ }).count()).toBe(1);
    expect(await tab.page.getByRole('button', { name: 'Add tenant' }).isVisible()).toBe(true);

    await tab.page.getByRole('button', { name: 'Edit Harbour Legal LLP' }).click();
    await tab.page.getByLabel('Unit').fill('');
    await tab.page.getByRole('button', { name: 'Save tenant' }).click();
    await expect.poll(() => tenant.textContent(), { timeout: 15_000 }).not.toContain('Floors 2 and 3');
    await tab.page.reload();
    await expect.poll(() => tenant.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await tenant.textContent()).not.toContain('Floor');
    expect(await tenant.textContent()).toContain('450 m²');

    await tabs.getByRole('link', { name: 'Manage' }).click();
    const adding = tab.page.locator('form', { has: tab.page.getByRole('button', { name: 'Add status' }) });
    await adding.getByLabel('Status').selectOption('inactive');
    await adding.getByLabel('From').fill('2020-02-03');
    await adding.getByLabel('Comment').fill('Closed for refit');
    await adding.getByRole('button', { name: 'Add status' }).click();
    const history = tab.page.getByRole('table', { name: 'Status history' });
    const entry = history.getByRole('row', { name: /Closed for refit/ });
    await expect.poll(() => entry.isVisible(), { timeout: 15_000 }).toBe(true);
    await entry.getByRole('button', { name: 'Edit' }).click();
    const editing = history.getByRole('row', { name: 'Editing a status change' });
    await editing.getByLabel('Status').selectOption('development');
    await editing.getByLabel('Comment').fill('Refit under way');
    await editing.getByRole('button', { name: 'Save' }).click();
    const edited = history.getByRole('row', { name: /Refit under way/ });
    await expect.poll(() => edited.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await edited.textContent()).toContain('In development');
    expect(await history.getByRole('row', { name: /Closed for refit/ }).count()).toBe(0);
  });
});

describe('company recommendations', () => {
  it('adds, edits and deletes a company recommendation, which sites can copy', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/recommendations');
    await tab.page.getByRole('heading', { name: 'Company recommendations' }).waitFor({ timeout: 15_000 });
    const adding = tab.page.getByRole('form', { name: 'Add a company recommendation' });
    await adding.getByRole('button', { name: 'Add' }).click();
    await expect
      .poll(() => adding.getByText('This field is required').isVisible(), { timeout: 10_000 })
      .toBe(true);
    await adding.getByLabel('Title').fill('LED lighting upgrade');
    await adding.getByLabel('Category').fill('Lighting');
    await adding.getByLabel('Priority').selectOption('high');
    await adding.getByRole('button', { name: 'Add' }).click();
    const list = tab.page.getByRole('table', { name: 'Company recommendations' });
    const row = list.getByRole('row', { name: /LED lighting upgrade/ });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);

    await row.getByRole('button', { name: 'Edit' }).click();
    const editing = tab.page.getByRole('form', { name: 'Edit recommendation' });
    await expect
      .poll(() => editing.getByLabel('Title').inputValue(), { timeout: 10_000 })
      .toBe('LED lighting upgrade');
    await editing.getByLabel('Status').selectOption('accepted');
    await editing.getByLabel('Cost (£)').fill('1200');
    await editing.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('accepted');
    expect(await row.textContent()).toContain('1,200');

    // A site's recommendations page offers it to copy, and leads back to the company list.
    await tab.page.goto(`${env.stack.origin}/assets`);
    await tab.page.getByRole('link', { name: 'Aldgate House' }).click();
    await tab.page
      .getByRole('navigation', { name: 'Site pages' })
      .getByRole('link', { name: 'Recommendations' })
      .click();
    const source = tab.page.getByLabel("From the company's list");
    await expect
      .poll(() => source.locator('option', { hasText: 'LED lighting upgrade' }).count(), { timeout: 15_000 })
      .toBe(1);
    await tab.page.getByRole('link', { name: 'Company recommendations' }).click();
    await tab.page.waitForURL(/\/recommendations$/);

    tab.page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
  });

  it('keeps the company list from a user with site grants only', async () => {
    await signIn(tab.page, env.stack.origin, 'asset@demo.test', '/recommendations');
    await expect
      .poll(() => tab.page.getByText(/Forbidden - You are not allowed to view this page/).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await tab.page.getByRole('heading', { name: 'Company recommendations' }).count()).toBe(0);
  });
});

describe('a portfolio', () => {
  it('removes several ticked sites at once, keeping the others', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/portfolios');
    const link = tab.page.getByRole('link', { name: 'High street retail' });
    await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true);
    await link.click();
    const table = tab.page.getByRole('table', { name: 'Sites in the portfolio' });
    const names = async () => (await table.locator('tbody tr td:nth-child(2) a').allTextContents()).sort();
    await expect
      .poll(names, { timeout: 15_000 })
      .toEqual(['128 High Street Guildford', '17 Bold Street', '210 Oxford Street', '54 Princes Street']);
    const removeSelected = tab.page.getByRole('button', { name: 'Remove selected' });
    expect(await removeSelected.isDisabled()).toBe(true);

    await tab.page.getByLabel('Select 17 Bold Street').check();
    await tab.page.getByLabel('Select 54 Princes Street').check();
    await tab.page.getByText('2 selected').waitFor({ timeout: 5_000 });
    await removeSelected.click();
    await expect.poll(names, { timeout: 15_000 }).toEqual(['128 High Street Guildford', '210 Oxford Street']);
    await tab.page.reload();
    await expect.poll(names, { timeout: 15_000 }).toEqual(['128 High Street Guildford', '210 Oxford Street']);
  });
});

describe('staff tools', () => {
  it("shows staff every company's counts, every site, and the grid data usage", async () => {
    await signIn(tab.page, env.stack.origin, 'admin@voltfolio.test', '/admin/tools/stats');
    const companies = tab.page.getByRole('table', { name: 'Companies' });
    const demo = companies.getByRole('row', { name: /Demo Estates Ltd/ });
    await expect.poll(() => demo.isVisible(), { timeout: 15_000 }).toBe(true);
    // Users, entities, sites and meters of the seeded company are all counted.
    const counts = (await demo.getByRole('cell').allTextContents()).slice(1, 5);
    expect(counts).toHaveLength(4);
    for (const count of counts) expect(count).toMatch(/^[1-9][\d,]*$/);

    await tab.page.goto(`${env.stack.origin}/admin/tools/map`);
    const sites = tab.page.getByRole('table', { name: 'Sites' });
    await expect
      .poll(() => sites.getByRole('row', { name: /Aldgate House/ }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await tab.page.getByLabel('Filter').fill('Hardman');
    await expect.poll(() => sites.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    expect(await sites.getByRole('row', { name: /Demo Estates Ltd.*Hardman Court/ }).count()).toBe(1);

    await tab.page.goto(`${env.stack.origin}/admin/gridfetch/loa`);
    const letter = tab.page.getByRole('form', { name: 'Upload a letter of authority' });
    await expect
      .poll(() => letter.getByLabel('Company').locator('option', { hasText: 'Demo Estates Ltd' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await letter.getByLabel('Company').selectOption({ label: 'Demo Estates Ltd' });
    await letter.locator('input[type="file"]').setInputFiles({
      name: 'LoA Demo.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(
        '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
      ),
    });
    await letter.getByLabel('Meters covered (MPAN cores)').fill('1312345678900');
    await letter.getByRole('button', { name: 'Upload' }).click();
    await expect
      .poll(() => letter.getByText('Must be a valid 13-digit MPAN core').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await letter.getByLabel('Meters covered (MPAN cores)').fill('1312345678907');
    await letter.getByRole('button', { name: 'Upload' }).click();
    const letters = tab.page.getByRole('table', { name: 'Letters of authority' });
    await expect
      .poll(() => letters.getByRole('row', { name: /Demo Estates Ltd.*LoA-Demo\.pdf/ }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);

    await tab.page.goto(`${env.stack.origin}/admin/gridfetch/usage`);
    await tab.page.getByRole('heading', { name: 'Grid data usage' }).waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () =>
          (await tab.page.getByRole('table', { name: 'Fetches per company and month' }).count()) +
          (await tab.page.getByText('No fetches in this range.').count()),
        { timeout: 15_000 },
      )
      .toBe(1);
  });

  it("predicts a gas meter picked from the chosen company's gas meters", async () => {
    tab.page.setDefaultTimeout(15_000);
    // A company with no meters at all, to see what the tool offers for one.
    const gasless = `Gasless Estates ${Date.now()}`;
    await signIn(tab.page, env.stack.origin, 'admin@voltfolio.test', '/companies/create');
    await tab.page.getByRole('textbox', { name: /^Company name/ }).fill(gasless);
    await tab.page.getByRole('button', { name: 'Create company' }).click();
    await tab.page
      .getByRole('table', { name: 'Companies' })
      .getByRole('row', { name: new RegExp(gasless) })
      .waitFor();

    await tab.page.goto(`${env.stack.origin}/admin/tools/gas-prediction`);
    const gas = tab.page.getByRole('form', { name: 'Gas prediction' });
    await gas.getByLabel('Heating degree days').fill('2025-01 310\nJanuary 280');
    await gas.getByRole('button', { name: 'Predict' }).click();
    await expect
      .poll(() => gas.getByText('Not a month and a number: January 280').isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await gas.getByText('Choose a gas meter').isVisible()).toBe(true);

    const meter = gas.getByRole('combobox', { name: 'Gas meter' });
    await gas.getByLabel('Company').selectOption({ label: gasless });
    await gas.getByText('This company has no gas meters.').waitFor();
    expect(await meter.isDisabled()).toBe(true);

    // The meter is picked from the chosen company's gas meters, found by its site's name.
    await gas.getByLabel('Company').selectOption({ label: 'Demo Estates Ltd' });
    await expect.poll(() => meter.isEnabled(), { timeout: 15_000 }).toBe(true);
    await meter.fill('aldgate');
    const options = tab.page.getByRole('listbox').getByRole('option');
    await expect
      .poll(() => options.allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/^Aldgate House Gas · MPRN \d{6,11}Aldgate House$/)]);
    await options.first().click();
    expect(await meter.inputValue()).toMatch(/^Aldgate House Gas · MPRN \d+$/);

    // Degree days for the two years learnt from and the two months predicted.
    const now = new Date();
    const monthAt = (n: number) => {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + n, 1));
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    const HDD = [390, 330, 300, 220, 140, 60, 25, 30, 80, 190, 290, 360];
    const lines = Array.from({ length: 26 }, (_, i) => {
      const month = monthAt(i - 24);
      return `${month} ${HDD[Number(month.slice(5)) - 1]}`;
    });
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
    await gas.getByLabel('Start date').fill(`${monthAt(0)}-01`);
    await gas.getByLabel('End date').fill(`${monthAt(1)}-${String(nextMonth.getUTCDate()).padStart(2, '0')}`);
    await gas.getByLabel('Heating degree days').fill(lines.join('\n'));
    await gas.getByRole('button', { name: 'Predict' }).click();
    const predicted = tab.page.getByRole('table', { name: 'Predicted months' });
    await expect.poll(() => predicted.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await predicted.getByRole('row').count()).toBe(3);
    await visible(new RegExp(`^[\\d,]+ kWh predicted from ${monthAt(0)}-01 to ${monthAt(1)}-\\d{2}\\.`));
  });
});
