import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { pdfPages } from '../support/report-files.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env, { acceptDownloads: true });

describe('report templates and the report builder', () => {
  it('builds a two-section template, previews, saves and generates it, then downloads and charts the report', async () => {
    const { page } = tab;
    const name = `Board pack ${Date.now().toString(36)}`;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/reports');
    await page.getByRole('link', { name: 'Templates' }).click({ timeout: 15_000 });
    await page.waitForURL(/\/reports\/templates$/);
    const standard = page.getByRole('table', { name: 'Standard reports' });
    await expect
      .poll(() => standard.getByRole('row', { name: /Streamlined Energy and Carbon Reporting/ }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await page.getByRole('link', { name: 'Generate SECR' }).getAttribute('href')).toBe(
      '/reports/generate?template=secr',
    );

    await page.getByRole('link', { name: 'New template' }).click();
    await page.waitForURL(/\/reports\/builder$/);
    const form = page.getByRole('form', { name: 'Report template' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Chart', exact: true }).click();
    const second = form.getByRole('group', { name: 'Section 2' });
    await second.getByLabel('Title').fill('Emissions by utility');
    await second.getByLabel('Shows').selectOption('emissions');
    await second.getByLabel('Split').selectOption('utility');

    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByLabel('Preview');
    await expect
      .poll(() => preview.getByRole('heading', { level: 4 }).allTextContents(), { timeout: 60_000 })
      .toEqual(['Key figures', 'Emissions by utility']);
    expect(await preview.getByRole('figure').count()).toBe(1);

    await form.getByRole('button', { name: 'Save template' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 15_000 })
      .toBe(`${name} is saved.`);
    // The builder lists it among the company's templates.
    await expect
      .poll(() => page.getByRole('button', { name, exact: true }).count(), { timeout: 15_000 })
      .toBe(1);
    await form.getByLabel('Format').selectOption('pdf');
    await form.getByRole('button', { name: 'Generate' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 15_000 }).toMatch(/is queued/);

    // The saved template is listed with the standard ones, and opens again in the builder.
    await page.goto(`${env.stack.origin}/reports/templates`);
    const own = page.getByRole('table', { name: "Your company's templates" });
    const row = own.getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('Emissions by utility');
    await row.getByRole('link', { name: `Edit ${name}` }).click();
    await expect.poll(() => form.getByLabel('Name').inputValue(), { timeout: 15_000 }).toBe(name);
    expect(await form.getByRole('group', { name: 'Section 2' }).getByLabel('Title').inputValue()).toBe(
      'Emissions by utility',
    );

    // The report's own page, from the history: it follows the build and downloads the file once built.
    await page.goto(`${env.stack.origin}/reports/history`);
    const report = page.getByRole('link', { name: new RegExp(`^${name} `) });
    await expect.poll(() => report.count(), { timeout: 15_000 }).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      report.click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const text = (await pdfPages(new Uint8Array(await readFile(await download.path())))).join(' ');
    expect(text).toContain('Emissions by utility');
    expect(page.url()).toMatch(/\/reports\/[0-9a-f]{24}\/download$/);

    await page.getByRole('link', { name: 'Charts' }).click();
    await page.waitForURL(/\/reports\/[0-9a-f]{24}\/chart$/);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Emissions by utility' }).count(), { timeout: 60_000 })
      .toBe(1);
    expect(await page.getByRole('figure').count()).toBe(1);
  }, 300_000);

  it('hides template editing from a user who reads only some sites', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'asset@demo.test', '/reports/templates');
    const standard = page.getByRole('table', { name: 'Standard reports' });
    await expect.poll(() => standard.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(1);
    await expect.poll(() => page.getByText(/company's templates/).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'New template' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Edit / }).count()).toBe(0);
  }, 120_000);
});
