import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mpanCheckDigit } from '../../shared/domain/mpan.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

/** A valid MPAN core no seeded meter has: a random unique id with its check digit. */
function freshMpan(): string {
  const first12 = `19${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
  return `${first12}${mpanCheckDigit(first12)}`;
}

/** The smallest PDF a reader opens: catalog, pages, one page with a line of text, and its xref table. */
function handWrittenPdf(): Buffer {
  const stream = 'BT /F1 12 Tf 20 50 Td (Supply contract) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

/** Fills the account wizard for an electricity meter at Temple Quay Point, up to the MPAN. */
async function startWizard(mpan: string) {
  await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/new-account');
  const site = tab.page.getByLabel('Site');
  await expect
    .poll(() => site.locator('option', { hasText: 'Temple Quay Point' }).count(), { timeout: 15_000 })
    .toBe(1);
  await site.selectOption({ label: 'Temple Quay Point' });
  await tab.page.getByLabel('MPAN (13-digit core)').fill(mpan);
}

async function createAccount(): Promise<string> {
  const mpan = freshMpan();
  await startWizard(mpan);
  await tab.page.getByRole('button', { name: 'Create account' }).click();
  await tab.page.waitForURL(/\/assets\/[0-9a-f]{24}\/accounts\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
  return new URL(tab.page.url()).pathname.replace(/\/overview$/, '');
}

const tab = openPagePerTest(env, { acceptDownloads: true });

describe('the account wizard', () => {
  it('refuses a bad MPAN beside the field, then creates the account with a valid one', async () => {
    await startWizard('1312345678900');
    await tab.page.getByLabel('MPAN (13-digit core)').blur();
    await expect.poll(() => tab.page.getByText('Must be a valid 13-digit MPAN').isVisible()).toBe(true);
    await tab.page.getByRole('button', { name: 'Create account' }).click();
    expect(new URL(tab.page.url()).pathname).toBe('/new-account');

    const mpan = freshMpan();
    await tab.page.getByLabel('MPAN (13-digit core)').fill(mpan);
    expect(await tab.page.getByText('Must be a valid 13-digit MPAN').count()).toBe(0);
    // The serial is asked for at creation, so a smart meter's data can be fetched from its first day.
    await tab.page.getByLabel('Meter serial number').fill('E19Z042817');
    await tab.page.getByRole('button', { name: 'Create account' }).click();
    await tab.page.waitForURL(/\/accounts\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
    const accountPage = new URL(tab.page.url()).pathname.replace(/\/overview$/, '');
    await expect.poll(() => tab.page.getByText(`MPAN: ${mpan}`).isVisible(), { timeout: 10_000 }).toBe(true);
    await tab.page
      .getByRole('heading', { name: 'Temple Quay Point Electricity' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await tab.page.getByLabel('Status: active').first().waitFor({ state: 'visible', timeout: 10_000 });
    await tab.page.goto(`${env.stack.origin}${accountPage}/edit`);
    await expect
      .poll(() => tab.page.getByLabel('Meter serial number').inputValue(), { timeout: 15_000 })
      .toBe('E19Z042817');
  });

  it('asks for no meter serial for a utility whose meters have none', async () => {
    await startWizard(freshMpan());
    await tab.page.getByLabel('Meter serial number').waitFor({ state: 'visible', timeout: 10_000 });
    await tab.page.getByLabel('Utility').selectOption({ label: 'Water' });
    await expect.poll(() => tab.page.getByLabel('Meter serial number').count()).toBe(0);
  });
});

describe("a site's meters", () => {
  it('lists the meters of a seeded site with its sub-meter badged, and opens one and the wizard for the site', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/assets');
    await tab.page.getByLabel('Search sites').fill('Hardman Court');
    const site = tab.page.getByRole('link', { name: 'Hardman Court' });
    await expect.poll(() => site.isVisible(), { timeout: 15_000 }).toBe(true);
    await site.click();
    await tab.page
      .getByRole('navigation', { name: 'Site pages' })
      .getByRole('link', { name: 'Meters' })
      .click();
    await tab.page.waitForURL(/\/assets\/[0-9a-f]{24}\/accounts$/, { timeout: 15_000 });
    const siteId = new URL(tab.page.url()).pathname.split('/')[2];

    const table = tab.page.getByRole('table', { name: 'Meters' });
    const subMeter = table.getByRole('row', { name: /Hardman Court Sub-meter – Data room/ });
    await expect.poll(() => subMeter.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await subMeter.getByText('Sub-meter', { exact: true }).isVisible()).toBe(true);
    expect(await subMeter.getByLabel('Status: active').isVisible()).toBe(true);
    // The site's gas and water supplies are meters of their own, without the badge.
    const gas = table.getByRole('row').filter({ hasText: 'Gas' }).first();
    expect(await gas.isVisible()).toBe(true);
    expect(await gas.getByText('Sub-meter', { exact: true }).count()).toBe(0);
    expect(await gas.getByLabel('MPRN').textContent()).toMatch(/^\d{6,10}$/);

    await tab.page.getByRole('link', { name: 'Add meter' }).click();
    await tab.page.waitForURL(/\/new-account\?assetId=/, { timeout: 10_000 });
    await expect.poll(() => tab.page.getByLabel('Site').inputValue(), { timeout: 15_000 }).toBe(siteId);
    await tab.page.goBack();

    await subMeter.getByRole('link', { name: /Data room/ }).click();
    await tab.page.waitForURL(/\/accounts\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
    await tab.page
      .getByRole('heading', { name: 'Hardman Court Sub-meter – Data room' })
      .waitFor({ state: 'visible', timeout: 10_000 });
  });
});

describe('status history', () => {
  it('edits a status change in place, and the account takes the status of its latest change', async () => {
    const base = await createAccount();
    await tab.page.goto(`${env.stack.origin}${base}/overview`);
    const adding = tab.page.getByRole('form', { name: 'Add a status change' });
    await adding.getByLabel('New status').selectOption('inactive');
    await adding.getByLabel('From').fill('2021-05-01');
    await adding.getByLabel('Comment').fill('Meter removed');
    await adding.getByRole('button', { name: 'Add status change' }).click();
    const history = tab.page.getByRole('table', { name: 'Status history' });
    const entry = history.getByRole('row', { name: /Meter removed/ });
    await expect.poll(() => entry.isVisible(), { timeout: 15_000 }).toBe(true);
    const header = tab.page.getByRole('heading', { level: 2 }).locator('..');
    await expect
      .poll(() => header.getByLabel('Status: inactive').isVisible(), { timeout: 10_000 })
      .toBe(true);

    await entry.getByRole('button', { name: 'Edit' }).click();
    const editing = history.getByRole('row', { name: 'Editing a status change' });
    expect(await editing.getByLabel('Date').inputValue()).toBe('2021-05-01');
    await editing.getByLabel('Status').selectOption('active');
    await editing.getByLabel('Comment').fill('Meter refitted');
    await editing.getByRole('button', { name: 'Save' }).click();
    const edited = history.getByRole('row', { name: /Meter refitted/ });
    await expect.poll(() => edited.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await edited.getByLabel('Status: active').isVisible()).toBe(true);
    await expect.poll(() => header.getByLabel('Status: active').isVisible(), { timeout: 10_000 }).toBe(true);
  });
});

describe('tags and totals', () => {
  it('suggests tags already used on the company meters, and recalculates the site totals', async () => {
    const base = await createAccount();
    await tab.page.goto(`${env.stack.origin}${base}/edit`);
    const tags = tab.page.getByRole('combobox', { name: 'Tags' });
    await tags.fill('sub');
    const suggestion = tab.page.getByRole('option', { name: 'sub-meter' });
    await expect.poll(() => suggestion.isVisible(), { timeout: 15_000 }).toBe(true);
    await suggestion.click();
    await tags.fill('landlord,');
    await tab.page.getByRole('button', { name: 'Save' }).click();
    await tab.page.waitForURL(/\/overview$/, { timeout: 15_000 });
    const details = tab.page.getByRole('table', { name: 'Account details' });
    await expect
      .poll(() => details.getByText('sub-meter', { exact: true }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await details.getByText('landlord', { exact: true }).isVisible()).toBe(true);

    await tab.page.getByRole('button', { name: 'Recalculate totals' }).click();
    await expect
      .poll(
        () => tab.page.getByText(/^Totals recalculated: \d+ of \d+ monthly figures changed$/).isVisible(),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
  });
});

describe("a meter's user", () => {
  it('sets who uses the supply on the edit page and shows it on the overview', async () => {
    const base = await createAccount();
    const details = tab.page.getByRole('table', { name: 'Account details' });
    await expect
      .poll(() => details.getByText('Not set', { exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await tab.page.goto(`${env.stack.origin}${base}/edit`);
    const usedBy = tab.page.getByLabel('Used by');
    await usedBy.selectOption({ label: 'Tenant' });
    // A tenant's meter may name one of the site's tenants; none is needed.
    await expect.poll(() => tab.page.getByLabel('Tenant', { exact: true }).isVisible()).toBe(true);
    await usedBy.selectOption({ label: 'Shared (whole building)' });
    expect(await tab.page.getByLabel('Tenant', { exact: true }).count()).toBe(0);
    await tab.page.getByRole('button', { name: 'Save' }).click();
    await tab.page.waitForURL(/\/overview$/, { timeout: 15_000 });
    await expect
      .poll(() => details.getByText('Shared (whole building)', { exact: true }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
  });
});

describe('contracts', () => {
  it('refuses a file that is not a PDF, then uploads a PDF, lists it and downloads the same bytes', async () => {
    const base = await createAccount();
    await tab.page.goto(`${env.stack.origin}${base}/contracts`);
    await tab.page.getByRole('button', { name: 'Add contract' }).click();
    await tab.page.getByLabel('Contract name').fill('EDF fixed 2025');
    await tab.page.getByLabel('Start date').fill('2025-04-01');
    await tab.page.getByLabel('End date').fill('2027-03-31');
    const fileInput = tab.page.locator('#contract-file');
    await fileInput.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: PNG });
    await tab.page.getByRole('button', { name: 'Add contract' }).click();
    await expect
      .poll(() => tab.page.getByText('Must be a PDF file: the uploaded file is a PNG image').isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);

    const pdf = handWrittenPdf();
    await fileInput.setInputFiles({ name: 'edf-contract.pdf', mimeType: 'application/pdf', buffer: pdf });
    await tab.page.getByRole('button', { name: 'Add contract' }).click();
    const link = tab.page.getByRole('button', { name: 'Download edf-contract.pdf' });
    await expect.poll(() => link.isVisible(), { timeout: 10_000 }).toBe(true);
    await tab.page
      .getByRole('cell', { name: 'EDF fixed 2025' })
      .waitFor({ state: 'visible', timeout: 10_000 });

    const [download] = await Promise.all([tab.page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('edf-contract.pdf');
    const saved = await download.path();
    expect(Buffer.compare(await readFile(saved), pdf)).toBe(0);

    const [csv] = await Promise.all([
      tab.page.waitForEvent('download'),
      tab.page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('contracts.csv');
    const lines = (await readFile(await csv.path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Name,Period,Status,Rates,File');
    expect(lines[1]).toMatch(
      /^EDF fixed 2025,01\/04\/2025 – 31\/03\/2027,(Active|Inactive),,edf-contract\.pdf$/,
    );
  });
});

describe('readings', () => {
  it('says when a meter has no readings, under headers sorted latest first', async () => {
    const base = await createAccount();
    await tab.page.goto(`${env.stack.origin}${base}/readings`);
    const empty = tab.page.getByText('No readings submitted yet.');
    await expect.poll(() => empty.isVisible(), { timeout: 15_000 }).toBe(true);
    const date = tab.page
      .getByRole('table', { name: 'Readings' })
      .getByRole('columnheader', { name: 'Date ▼' });
    expect(await date.getAttribute('aria-sort')).toBe('descending');
    expect(await tab.page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
  });
});
