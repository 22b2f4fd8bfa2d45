import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfPages } from '../support/report-files.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env, { acceptDownloads: true });

/** Every state the download page has shown, in order, however briefly. */
async function recordStatuses(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    // Other parts of the shell carry a data-status of their own (the live connection's, say).
    const states = new Set(['asking', 'queued', 'generating', 'ready']);
    Object.assign(window, { seenStatuses: seen });
    new MutationObserver(() => {
      const status = [...document.querySelectorAll('[data-status]')]
        .map((e) => e.getAttribute('data-status') ?? '')
        .find((s) => states.has(s));
      if (status && seen.at(-1) !== status) seen.push(status);
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}
const statuses = (page: Page) =>
  page.evaluate(() => (window as unknown as { seenStatuses: string[] }).seenStatuses);

/** The London portfolio's reports tab, reached as a user would. */
async function portfolioReports(page: Page): Promise<string> {
  await signIn(page, env.stack.origin, 'owner@demo.test', '/portfolios');
  await page.getByRole('link', { name: 'London portfolio' }).first().click({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'Reports' }).click({ timeout: 15_000 });
  await page.waitForURL(/\/portfolios\/[0-9a-f]{24}\/reports$/);
  return /\/portfolios\/([0-9a-f]{24})\//.exec(page.url())?.[1] ?? '';
}

/** A built report of the portfolio's, as the API lists it. */
function readyReport(scopeId: string) {
  const year = new Date().getFullYear() - 1;
  const now = new Date().toISOString();
  return {
    _id: 'e'.repeat(24),
    name: `Data coverage ${year}-01-01 to ${year}-12-31`,
    type: 'data-coverage',
    status: 'ready',
    format: 'pdf',
    scopeType: 'portfolio',
    scopeId,
    startDate: `${year}-01-01`,
    endDate: `${year}-12-31`,
    requestedBy: 'someone',
    createdAt: now,
    completedAt: now,
    generation: 1,
    builtGeneration: 1,
  };
}

/**
 * Holds the answer to a report's file link until `release`, then answers with a file served as an
 * attachment; `downloads` lists every download the page started.
 */
async function holdFileLink(page: Page, reportId: string) {
  let asked = false;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.endsWith(`/reports/${reportId}/download`),
    async (route) => {
      if (route.request().resourceType() === 'document') return route.continue();
      asked = true;
      await held;
      await route.fulfill({
        json: { url: `${env.stack.origin}/held-report.pdf`, fileName: 'held-report.pdf' },
      });
    },
  );
  await page.route('**/held-report.pdf', (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-disposition': 'attachment; filename="held-report.pdf"' },
      contentType: 'application/pdf',
      body: '%PDF-1.4',
    }),
  );
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  return { asked: () => asked, release: () => release(), downloads };
}

describe("a portfolio's report download page", () => {
  it('is linked from the reports tab, shows the build progressing and downloads the PDF when it is ready', async () => {
    const { page } = tab;
    await recordStatuses(page);
    const id = await portfolioReports(page);
    const link = page.getByRole('link', { name: 'Portfolio energy and carbon summary' });
    expect(await link.getAttribute('href')).toBe(`/portfolios/${id}/reports/portfolio-summary/download`);

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const text = (await pdfPages(new Uint8Array(await readFile(await download.path())))).join(' ');
    expect(text).toContain('Energy and carbon summary');

    await expect.poll(() => page.getByText(/is ready; its download has started/).count()).toBe(1);
    const seen = await statuses(page);
    // The page showed the report waiting or being built (with its progress bar) before it was ready.
    expect(seen.at(-1)).toBe('ready');
    expect(seen.some((s) => s === 'queued' || s === 'generating')).toBe(true);
  }, 240_000);

  it('starts no download when the user has left the page before its link arrived', async () => {
    const { page } = tab;
    const id = await portfolioReports(page);
    const ready = readyReport(id);
    await page.route(
      (url) => url.pathname.endsWith('/reports') && url.searchParams.get('scopeId') === id,
      (route) => route.fulfill({ json: { data: [ready], total: 1 } }),
    );
    const held = await holdFileLink(page, ready._id);

    await page.goto(`${env.stack.origin}/portfolios/${id}/reports/data-coverage/download`);
    await expect.poll(held.asked, { timeout: 20_000 }).toBe(true);
    await page.getByRole('link', { name: 'Back to the portfolio' }).click();
    await page.waitForURL(/\/portfolios\/[0-9a-f]{24}\/reports$/);
    held.release();
    await page.waitForTimeout(2_000);
    expect(held.downloads).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/portfolios/${id}/reports`);
  }, 120_000);

  it('offers "Try again" for a report that could not be built, and follows the new build', async () => {
    const { page } = tab;
    const id = await portfolioReports(page);
    const year = new Date().getFullYear() - 1;
    const failed = {
      _id: 'f'.repeat(24),
      name: `Data coverage ${year}-01-01 to ${year}-12-31`,
      type: 'data-coverage',
      status: 'failed',
      format: 'pdf',
      scopeType: 'portfolio',
      scopeId: id,
      startDate: `${year}-01-01`,
      endDate: `${year}-12-31`,
      requestedBy: 'someone',
      createdAt: new Date(Date.now() + 60_000).toISOString(),
      error: 'The report could not be built; it will be tried again',
    };
    // The build's failure is played by the page's list of reports; the retry is asked of the API as usual.
    let retried = false;
    await page.route(
      (url) => url.pathname.endsWith('/reports') && url.searchParams.get('scopeId') === id,
      (route) =>
        route.fulfill({
          json: { data: [retried ? { ...failed, status: 'queued', error: undefined } : failed], total: 1 },
        }),
    );
    await page.route(`**/reports/${failed._id}/regenerate`, (route) => {
      retried = true;
      return route.fulfill({ status: 202, json: { ...failed, status: 'queued', generation: 2 } });
    });

    await page.goto(`${env.stack.origin}/portfolios/${id}/reports/data-coverage/download`);
    const alert = page.getByRole('alert').filter({ hasText: 'The report could not be built' });
    await expect.poll(() => alert.count(), { timeout: 20_000 }).toBe(1);
    expect(await alert.textContent()).toContain('it will be tried again');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => retried).toBe(true);
    await expect
      .poll(() => page.getByRole('progressbar', { name: 'Progress of the report' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await alert.count()).toBe(0);
  }, 120_000);
});

describe("a report's own download page", () => {
  it('starts no download when the user has left for the history before its link arrived', async () => {
    const { page } = tab;
    const id = await portfolioReports(page);
    const ready = readyReport(id);
    await page.route(
      (url) => url.pathname.endsWith(`/reports/${ready._id}`),
      (route) =>
        route.request().resourceType() === 'document' ? route.continue() : route.fulfill({ json: ready }),
    );
    const held = await holdFileLink(page, ready._id);

    await page.goto(`${env.stack.origin}/reports/${ready._id}/download`);
    await expect.poll(held.asked, { timeout: 20_000 }).toBe(true);
    await page.getByRole('link', { name: 'Report history' }).click();
    await page.waitForURL(/\/reports\/history$/);
    held.release();
    await page.waitForTimeout(2_000);
    expect(held.downloads).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/reports/history');
  }, 120_000);
});
