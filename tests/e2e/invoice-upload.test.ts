import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { launchBrowser, signIn } from './support/browser.ts';

let stack: LocalStackHandle;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await startLocalStack({ seed: true, web: 'build' });
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
}, 170_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A one-page electricity bill with the labels a reader looks for: number, period, totals. */
async function billPdf(invoiceNumber: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pdfPage = doc.addPage([595.28, 841.89]);
  const lines: [string, number, boolean?][] = [
    ['Northern Power Supply Ltd', 790, true],
    ['Electricity bill', 760, true],
    [`Invoice number: ${invoiceNumber}`, 720],
    ['Invoice date: 05/03/2026', 700],
    ['Account number: 88123456', 680],
    ['Billing period: 01/02/2026 to 28/02/2026', 660],
    ['Site address: 1 Temple Quay, Bristol BS1 6DZ', 640],
    ['Day units 1,200 kWh at 25.00p per kWh   £300.00', 600],
    ['Standing charge 28 days at 50.00p per day   £14.00', 580],
    ['Net total   £314.00', 540],
    ['VAT at 20%   £62.80', 520],
    ['Total amount due   £376.80', 500, true],
  ];
  for (const [text, y, strong] of lines)
    pdfPage.drawText(text, { x: 50, y, size: 12, font: strong ? bold : font });
  return Buffer.from(await doc.save());
}

const SETTLED = /Captured|Manual|Error/;

/** The queue (failed or passed) whose page lists the invoice, looked for until the deadline. */
async function queueHolding(invoiceNumber: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const queue of ['failed', 'passed']) {
      await page.goto(`${stack.origin}/invoice-validation/${queue}`);
      const listed = page.getByRole('table', { name: 'Invoices' }).or(page.getByText(/^No invoices in /));
      await listed.first().waitFor({ timeout: 15_000 });
      if ((await page.getByRole('row', { name: new RegExp(invoiceNumber) }).count()) > 0) return queue;
    }
    await page.waitForTimeout(2000);
  }
  return undefined;
}

describe('invoice upload', () => {
  it('uploads a PDF with progress to 100, follows its capture, and lists it for validation', async () => {
    const invoiceNumber = `NPS-${Date.now()}`;
    const fileName = `bill-${invoiceNumber}.pdf`;
    await signIn(page, stack.origin, 'owner@demo.test', '/invoices/upload');
    const picker = page.getByLabel('Invoice files');
    await expect.poll(() => picker.count(), { timeout: 15_000 }).toBe(1);
    await picker.setInputFiles({
      name: fileName,
      mimeType: 'application/pdf',
      buffer: await billPdf(invoiceNumber),
    });

    // The file's own progress bar reaches 100 once the store has answered.
    const bar = page.getByRole('progressbar', { name: `Upload of ${fileName}` });
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');
    const row = page.getByRole('row', { name: new RegExp(fileName) });
    await expect
      .poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 })
      .not.toBe('uploading');

    // Polled (every 10 s, sooner on a live message) until capture is done with it.
    await expect
      .poll(async () => (await row.textContent()) ?? '', { timeout: 90_000, interval: 1000 })
      .toMatch(SETTLED);
    const status = await row.locator('[data-status]').getAttribute('data-status');
    expect(['captured', 'manual', 'error']).toContain(status);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'new invoice for validation' }).count())
      .toBe(1);

    // Once validated it is in the failed or the passed queue.
    const found = await queueHolding(invoiceNumber, 60_000);
    expect(['failed', 'passed']).toContain(found);

    // Its page shows the document beside its values.
    await page.getByRole('link', { name: new RegExp(invoiceNumber) }).click();
    await page.waitForURL(/\/invoice-validation\/[0-9a-f]{24}$/);
    await expect
      .poll(() => page.getByTestId('page-indicator').textContent(), { timeout: 30_000 })
      .toBe('Page 1 of 1');
    const canvas = page.getByRole('img', { name: /page 1 of 1/ });
    await expect.poll(() => canvas.getAttribute('data-rendered-page'), { timeout: 30_000 }).toBe('1');
    const numberInput = page.getByLabel('Invoice number', { exact: true });
    expect(await numberInput.inputValue()).toBe(invoiceNumber);
    // Focusing a value outlines where on the page it was read.
    await numberInput.focus();
    await expect.poll(() => page.getByTestId('value-highlight').count(), { timeout: 10_000 }).toBe(1);
  }, 240_000);
});
