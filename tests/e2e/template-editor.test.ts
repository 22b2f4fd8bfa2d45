import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

/** A two-page Veolia bill with a text layer: the total sits near the foot of page 1. */
async function sampleBill(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([595, 842]);
  first.drawText('Veolia ES (UK) Limited', { x: 50, y: 790, size: 14, font });
  first.drawText('Invoice number VEO-1001', { x: 50, y: 740, size: 12, font });
  first.drawText('Total due £456.78', { x: 50, y: 160, size: 12, font });
  const second = doc.addPage([595, 842]);
  second.drawText('Terms and conditions', { x: 50, y: 790, size: 12, font });
  return Buffer.from(await doc.save());
}

// Tall enough for a whole sample page: the mouse draws only on what is in view.
const tab = openPagePerTest(env, { viewport: { width: 1440, height: 1800 } });

describe('the supplier template editor', () => {
  it('uploads a sample, draws a bound, reads a value from it and shows it in the preview', async () => {
    await signIn(tab.page, env.stack.origin, 'admin@voltfolio.test', '/suppliers');
    await tab.page.getByRole('link', { name: 'Veolia', exact: true }).click({ timeout: 15_000 });
    await tab.page.waitForURL(/\/suppliers\/[0-9a-f]{24}\/overview$/);
    await tab.page.getByRole('tab', { name: 'Templates' }).click();
    await tab.page.waitForURL(/\/suppliers\/[0-9a-f]{24}\/templates\/waste$/);

    await tab.page.getByRole('button', { name: 'Create template' }).click({ timeout: 15_000 });
    await expect.poll(() => tab.page.getByTestId('template-status').textContent()).toBe('Awaiting sample');
    await tab.page.locator('input[type=file]').setInputFiles({
      name: 'veolia-bill.pdf',
      mimeType: 'application/pdf',
      buffer: await sampleBill(),
    });

    const indicator = tab.page.getByTestId('page-indicator');
    await expect.poll(() => indicator.textContent(), { timeout: 30_000 }).toBe('Page 1 of 2');
    expect(await tab.page.getByTestId('template-status').textContent()).toBe('In progress');
    await tab.page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => indicator.textContent()).toBe('Page 2 of 2');
    await tab.page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => indicator.textContent()).toBe('Page 1 of 2');

    // The total is printed 160 pt above the foot of an 842 pt page: about 80% down.
    await tab.page.getByRole('switch', { name: 'Draw bound' }).click();
    const sheet = tab.page.getByRole('application', { name: 'Sample page' });
    const box = await sheet.boundingBox();
    if (!box) throw new Error('The sample page is not shown');
    await tab.page.mouse.move(box.x + box.width * 0.04, box.y + box.height * 0.77);
    await tab.page.mouse.down();
    await tab.page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.83, { steps: 8 });
    await tab.page.mouse.up();
    await tab.page.getByLabel('Bound name').fill('Total');
    await tab.page.getByRole('button', { name: 'Save bound' }).click();
    await tab.page.getByRole('tab', { name: 'Bounds' }).click();
    await expect.poll(() => tab.page.getByRole('table', { name: 'Bounds' }).textContent()).toContain('Total');

    await tab.page.getByRole('tab', { name: 'Values' }).click();
    await tab.page.getByRole('button', { name: 'New value' }).click();
    await tab.page.getByLabel('Key', { exact: true }).selectOption({ label: 'Total' });
    await tab.page.getByLabel('Bound', { exact: true }).selectOption({ label: 'Total' });
    expect(await tab.page.getByLabel('Type', { exact: true }).inputValue()).toBe('price');
    await tab.page.getByRole('button', { name: 'Add value' }).click();
    await expect.poll(() => tab.page.getByRole('table', { name: 'Values' }).textContent()).toContain('Total');

    await tab.page.getByRole('tab', { name: 'Extraction' }).click();
    const preview = tab.page.getByRole('table', { name: 'Extraction preview' });
    await expect.poll(() => preview.textContent().catch(() => ''), { timeout: 60_000 }).toContain('456.78');
    // The key, the amount as read (in pounds), and the text it was read from.
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'Total',
      '456.78',
      '£456.78',
    ]);

    // What Textract read is drawn over the sample on request: three lines on page 1, and the bound.
    expect(await sheet.locator('[data-overlay=line]').count()).toBe(0);
    await tab.page.getByRole('switch', { name: 'Lines' }).click();
    await expect.poll(() => sheet.locator('[data-overlay=line]').count()).toBe(3);
    expect(await sheet.locator('[data-overlay=bound]').count()).toBe(1);
  });
});
