import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CrremTable, EnergyTable } from '../../web/features/benchmarks/api.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env, { acceptDownloads: true });

function answerOf<T>(page: Page, path: string): Promise<T> {
  return page
    .waitForResponse((r: Response) => r.url().includes(`/api${path}`) && r.ok(), { timeout: 30_000 })
    .then((r) => r.json() as Promise<T>);
}

describe('the Benchmarks pages', () => {
  it('show each demo site against the illustrative CRREM pathway, its chart, and export the table', async () => {
    const { page } = tab;
    const crrem = answerOf<CrremTable>(page, '/benchmarks/crrem/sites');
    await signIn(page, env.stack.origin, 'owner@demo.test', '/benchmarks/crrem');
    const table = await crrem;
    expect(table.pathwaySet).toMatchObject({ name: 'Illustrative pathways (not CRREM)', illustrative: true });
    await page.getByRole('heading', { name: 'CRREM pathways' }).waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.getByRole('note').textContent(), { timeout: 10_000 })
      .toContain("Illustrative pathways, not CRREM's");

    const benchmarked = table.sites.filter((s) => s.benchmarked);
    expect(benchmarked.length).toBeGreaterThan(0);
    // The chart opens on the site misaligned first, with its year marked.
    const first = [...benchmarked].sort(
      (a, b) => (a.misalignment?.year ?? 9999) - (b.misalignment?.year ?? 9999),
    )[0];
    const chart = page.getByRole('figure', {
      name: `${first?.siteName}: carbon intensity against the pathway`,
    });
    await chart.waitFor({ timeout: 15_000 });
    if (first?.misalignment?.carbon) {
      expect(await chart.textContent()).toContain(`Misaligned from ${first.misalignment.carbon}`);
    }

    // The table sorts by misalignment year: its first row is that site.
    const rows = page.getByRole('table', { name: 'Sites against their CRREM pathway' }).getByRole('row');
    await expect.poll(() => rows.nth(1).textContent(), { timeout: 10_000 }).toContain(first?.siteName ?? '');

    const [workbook] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Download XLSX' }).click(),
    ]);
    expect(workbook.suggestedFilename()).toBe('crrem-benchmark.xlsx');
    const files = unzipSync(new Uint8Array(await readFile(await workbook.path())));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    expect(sheet.match(/<row /g)).toHaveLength(table.sites.length + 1);
    // Every row names the pathway set it was measured against.
    expect(sheet.match(/Illustrative pathways \(not CRREM\) demo-1/g)).toHaveLength(table.sites.length);

    // Another site's chart on a click of its name.
    const other = benchmarked.find((s) => s._id !== first?._id);
    if (other) {
      await page.getByRole('button', { name: other.siteName, exact: true }).first().click();
      await page
        .getByRole('figure', { name: `${other.siteName}: energy intensity against the pathway` })
        .waitFor({ timeout: 15_000 });
    }
  });

  it('show the LETI targets with their source, marked illustrative, and the sites against them', async () => {
    const { page } = tab;
    const leti = answerOf<EnergyTable>(page, '/benchmarks/leti/sites');
    await signIn(page, env.stack.origin, 'owner@demo.test', '/benchmarks/leti');
    const table = await leti;
    await page.getByRole('heading', { name: 'LETI operational energy targets' }).waitFor({ timeout: 15_000 });
    const figures = page.getByRole('table', { name: 'LETI benchmark figures' });
    const office = figures.getByRole('row').filter({ hasText: 'Office' });
    await expect.poll(() => office.textContent(), { timeout: 10_000 }).toContain('55');
    expect(await office.textContent()).toContain('LETI Climate Emergency Design Guide');
    expect(await office.textContent()).toContain('Illustrative');
    const rated = table.sites.find((s) => s.benchmarked);
    expect(rated?.propertyType).toBe('Office');
    const sites = page.getByRole('table', { name: 'Sites against LETI' });
    expect(await sites.textContent()).toContain(rated?.siteName ?? '');
    // Retail sites have no LETI figure: listed, not dropped.
    const retail = table.sites.find((s) => s.propertyType === 'Retail');
    expect(retail).toMatchObject({ benchmarked: false, missing: ['benchmark'] });
  });
});
