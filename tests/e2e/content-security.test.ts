import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

/**
 * The app under its content security policy: sign-in through the OpenID provider, the live connection,
 * a presigned upload and the main pages all work, and the browser reports no violation of the policy.
 */

const env = startBrowserStack();
let page: Page;
const violations: string[] = [];
const sockets: string[] = [];

beforeAll(async () => {
  page = await (await env.browser.newContext()).newPage();
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) violations.push(m.text());
  });
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportViolation: (t: string) => void }).reportViolation;
      report(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}, 170_000);

async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595.28, 841.89]).drawText('Invoice number: CSP-1', { x: 50, y: 700, size: 12, font });
  return Buffer.from(await doc.save());
}

describe('the app under its content security policy', () => {
  it('signs in, goes live, uploads and shows its pages without a violation', async () => {
    const first = await page.goto(`${env.stack.origin}/`);
    expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(first?.headers()['x-frame-options']).toBe('DENY');

    await signIn(page, env.stack.origin, 'owner@demo.test', '/invoices/upload');
    const picker = page.getByLabel('Invoice files');
    await expect.poll(() => picker.count(), { timeout: 15_000 }).toBe(1);
    await picker.setInputFiles({ name: 'csp.pdf', mimeType: 'application/pdf', buffer: await onePagePdf() });
    const bar = page.getByRole('progressbar', { name: 'Upload of csp.pdf' });
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');
    await expect.poll(() => sockets.length, { timeout: 20_000 }).toBeGreaterThan(0);

    for (const path of ['/', '/assets', '/accounts', '/entities', '/invoice-validation/failed']) {
      await page.goto(`${env.stack.origin}${path}`);
      await page.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
  });
});
