import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
}, 170_000);

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

/** The queue (failed or passed) whose page lists the invoice, looked for until the deadline. */
async function queueHolding(invoiceNumber: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const queue of ['failed', 'passed']) {
      await page.goto(`${env.stack.origin}/invoice-validation/${queue}`);
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
    await signIn(page, env.stack.origin, 'owner@demo.test', '/invoices/upload');
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

    // Followed (on the live connection's word, polled as a fallback) past capture to the bill checks'
    // outcome: the row says Passed or Failed, never a bare "Captured" for a bill that failed.
    const outcome = row.locator('[data-validation]');
    const judged = async () =>
      (await outcome.count()) > 0 ? await outcome.first().getAttribute('data-validation') : null;
    await expect
      .poll(judged, { timeout: 150_000, interval: 1000 })
      .toMatch(/^(passed|warning|failed|error)$/);
    expect(await row.textContent()).not.toContain('Captured');
    const status = page.getByRole('status').filter({ hasText: 'new invoice for validation' });
    await expect.poll(() => status.count()).toBe(1);
    expect(await status.textContent()).not.toMatch(/every \d+ s/);

    // It is in the queue its row named.
    const found = await queueHolding(invoiceNumber, 60_000);
    const passes = ['passed', 'warning'].includes((await judged()) ?? '');
    expect(found).toBe(passes ? 'passed' : 'failed');

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

describe('an account’s invoices', () => {
  it('uploads a bill by hand, stamps it, downloads the stamped copy and adds a charge line', async () => {
    // A session of its own, so it does not depend on the other test having signed in.
    const own = await (await env.browser.newContext()).newPage();
    await signIn(own, env.stack.origin, 'owner@demo.test', '/assets');
    await own.getByLabel('Search sites').fill('Hardman Court');
    const site = own.getByRole('link', { name: 'Hardman Court' });
    await expect.poll(() => site.isVisible(), { timeout: 15_000 }).toBe(true);
    await site.click();
    await own.getByRole('navigation', { name: 'Site pages' }).getByRole('link', { name: 'Meters' }).click();
    const meter = own.getByRole('table', { name: 'Meters' }).getByRole('link', { name: /Data room/ });
    await expect.poll(() => meter.isVisible(), { timeout: 15_000 }).toBe(true);
    await meter.click();
    await own.waitForURL(/\/accounts\/[0-9a-f]{24}\/overview$/, { timeout: 15_000 });
    await own.goto(own.url().replace(/\/overview$/, '/invoices'));

    await own.getByRole('button', { name: 'Upload an invoice by hand' }).click();
    const form = own.getByRole('form', { name: 'Manual invoice upload' });
    const invoiceNumber = `MAN-${Date.now()}`;
    await form.getByLabel('Invoice number', { exact: true }).fill(invoiceNumber);
    await form.getByLabel('Gross total (£)').fill('376.80');
    // A file named as a PDF that is not one is refused by its bytes, the reason shown on the file.
    await form.getByLabel('Invoice document').setInputFiles({
      name: 'bill.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('not a pdf at all'),
    });
    await form.getByRole('button', { name: 'Upload invoice' }).click();
    await expect
      .poll(() => form.getByText('The file is not a PDF document or a PNG, JPEG or TIFF image').count(), {
        timeout: 15_000,
      })
      .toBe(1);

    await form.getByLabel('Invoice document').setInputFiles({
      name: `${invoiceNumber}.pdf`,
      mimeType: 'application/pdf',
      buffer: await billPdf(invoiceNumber),
    });
    await form.getByRole('button', { name: 'Upload invoice' }).click();
    const row = own
      .getByRole('table', { name: 'Invoices' })
      .getByRole('row', { name: new RegExp(invoiceNumber) });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await form.count()).toBe(0);

    await row.getByRole('button', { name: 'Stamp', exact: true }).click();
    await expect.poll(() => row.getByText('Stamped', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    const [download] = await Promise.all([
      own.waitForEvent('download', { timeout: 15_000 }),
      row.getByRole('button', { name: `Download the stamped copy of ${invoiceNumber}` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-stamped\.pdf$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');

    await row.getByRole('button', { name: `Rates of ${invoiceNumber}` }).click();
    const addRate = own.getByRole('form', { name: 'Add a rate' });
    await addRate.getByLabel('Description').fill('Day units');
    await addRate.getByLabel('Amount (£)').fill('300');
    await addRate.getByRole('button', { name: 'Add rate' }).click();
    await expect
      .poll(
        () =>
          own
            .getByRole('table', { name: 'Rates' })
            .getByRole('row', { name: /Day units/ })
            .count(),
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    expect(await row.getByRole('button', { name: `Rates of ${invoiceNumber}` }).textContent()).toBe(
      'Rates (1)',
    );
  }, 120_000);
});

describe('the demo bills', () => {
  it('show a failed EDF bill beside its PDF, and an imported bill with no document as having none', async () => {
    const own = await (await env.browser.newContext()).newPage();
    const downloads: string[] = [];
    own.on('request', (r) => {
      if (r.url().includes('/download')) downloads.push(r.url());
    });
    await signIn(own, env.stack.origin, 'owner@demo.test', '/invoice-validation/failed');
    const failed = own.getByRole('table', { name: 'Invoices' }).getByRole('link', { name: /^EDF\d+/ });
    await expect.poll(() => failed.count(), { timeout: 20_000 }).toBe(3);
    await failed.first().click();
    await own.waitForURL(/\/invoice-validation\/[0-9a-f]{24}$/);
    await expect
      .poll(() => own.getByTestId('page-indicator').textContent(), { timeout: 30_000 })
      .toBe('Page 1 of 1');
    expect(await own.getByLabel('Invoice number', { exact: true }).inputValue()).toMatch(/^EDF\d+$/);
    expect(await own.getByLabel('Recipient', { exact: true }).inputValue()).toBe('Demo Estates Ltd');
    expect(await own.getByLabel('Meter point number', { exact: true }).inputValue()).toMatch(/^\d{10,13}$/);
    expect(Number(await own.getByLabel('Closing read', { exact: true }).inputValue())).toBeGreaterThan(
      Number(await own.getByLabel('Opening read', { exact: true }).inputValue()),
    );
    expect(await own.getByText(/but the contract rate "Unit rate" is/).count()).toBeGreaterThan(0);

    const summary = env.stack.stack.seed?.summary as
      | { companies?: { id: string; name: string }[] }
      | undefined;
    const demoId = summary?.companies?.find((c) => c.name === 'Demo Estates Ltd')?.id;
    const invoices = await DynamoDBDocumentClient.from(env.stack.stack.dynamo.client).send(
      new QueryCommand({
        TableName: env.stack.env.TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `C#${demoId}#invoices` },
        Limit: 50,
      }),
    );
    const imported = invoices.Items?.find((i) => i.source === 'import' && !i.key);
    expect(imported).toBeDefined();
    downloads.length = 0;
    await own.goto(`${env.stack.origin}/invoice-validation/${String(imported?._id)}`);
    const none = own.getByText(
      'This invoice has no document: it was imported as data, not captured from a file.',
    );
    await expect.poll(() => none.count(), { timeout: 20_000 }).toBe(1);
    expect(await own.getByLabel('Invoice number', { exact: true }).inputValue()).toBe(
      imported?.invoiceNumber,
    );
    expect(await own.getByText('The document could not be fetched').count()).toBe(0);
    expect(downloads).toEqual([]);
    await own.context().close();
  }, 120_000);
});

describe('a bill validator', () => {
  it('works the queues without a call the API refuses, and may assign to themselves', async () => {
    const own = await (await env.browser.newContext()).newPage();
    const refused: string[] = [];
    own.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() === 403) refused.push(`${r.request().method()} ${r.url()}`);
    });
    await signIn(own, env.stack.origin, 'validator@demo.test', '/invoice-validation/failed');
    const filter = own.getByLabel('Assigned to');
    await filter.waitFor({ timeout: 20_000 });
    await own
      .getByRole('table', { name: 'Invoices' })
      .or(own.getByText(/^No invoices in /))
      .first()
      .waitFor();
    await own.waitForLoadState('networkidle');
    const choices = await filter.locator('option').allTextContents();
    // Only the validator themselves besides 'Anyone': the company's people are not theirs to list.
    expect(choices).toHaveLength(2);
    expect(choices[0]).toBe('Anyone');
    expect(choices[1]).toMatch(/\(me\)$/);
    expect(refused).toEqual([]);
    await own.context().close();
  }, 90_000);
});
