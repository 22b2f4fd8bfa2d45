import { describe, expect, it } from 'vitest';
import { periodLabel } from '../../web/features/accounts/consumption-shape.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { capturedBill, TOTAL_BOX } from './support/captured-bill.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('where a figure comes from', () => {
  it('drills from a month of a meter to its site, back to the meter, its bill and the bill’s PDF with the total outlined', async () => {
    const bill = await capturedBill(env);
    const page = tab.page;
    await signIn(
      page,
      env.stack.origin,
      'owner@demo.test',
      `/assets/${bill.assetId}/accounts/${bill.accountId}/consumption`,
    );
    const link = page.getByRole('link', { name: `Where does ${periodLabel(bill.month)} come from?` });
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    await link.click();

    const panel = page.getByRole('dialog', { name: 'Where does this come from?' });
    await panel.waitFor({ state: 'visible', timeout: 15_000 });
    const crumbs = panel.getByRole('navigation', { name: 'Where you are in the figure' });
    // The meter's month, bill by bill: its parts add up to it.
    const bills = panel.getByRole('table', { name: 'Bills and other parts' });
    await bills.waitFor({ state: 'visible', timeout: 20_000 });
    await expect
      .poll(() => panel.getByTestId('provenance-check').textContent())
      .toBe('✓ The parts add up to the figure.');

    // Up to the site: its meters add up to the site's figure.
    await crumbs.getByRole('button').nth(1).click();
    const meters = panel.getByRole('table', { name: 'Meters' });
    await meters.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await panel.getByTestId('provenance-check').textContent()).toBe(
      '✓ The parts add up to the figure.',
    );
    expect(await meters.getByRole('row').count()).toBeGreaterThan(3);

    // Down again to the meter, and to the bill.
    await meters.getByRole('button', { name: bill.meterName, exact: true }).click();
    await bills.waitFor({ state: 'visible', timeout: 20_000 });
    await bills.getByRole('button', { name: `Bill ${bill.invoiceNumber}` }).click();

    // The bill: its share of the month, its factor and version, and that nobody has confirmed it yet.
    await panel.getByRole('heading', { name: /^Bill / }).waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('provenance-share').textContent()).toBe('100%');
    expect(await panel.getByTestId('provenance-factor').first().textContent()).toMatch(
      /version desnz-\d{4}-v1/,
    );
    expect(await panel.getByTestId('provenance-confirmation').textContent()).toBe(
      'Not confirmed yet: the bill awaits review',
    );

    await panel.getByRole('button', { name: 'View on the bill' }).click();
    await expect
      .poll(() => panel.getByTestId('page-indicator').textContent(), { timeout: 30_000 })
      .toBe('Page 1 of 1');
    const highlight = panel.getByTestId('value-highlight');
    await highlight.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await highlight.getAttribute('title')).toBe('Total');
    // The outline sits where the box says on the drawn page (both measured at once: the panel may still
    // be scrolling the outline into view).
    const where = () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-testid="value-highlight"]')?.getBoundingClientRect();
        const drawn = document.querySelector('canvas[data-rendered-page]')?.getBoundingClientRect();
        if (!box || !drawn) return undefined;
        const r = (v: number) => Math.round(v * 100) / 100;
        return [r((box.left - drawn.left) / drawn.width), r((box.top - drawn.top) / drawn.height)];
      });
    await expect.poll(where, { timeout: 10_000 }).toEqual([TOTAL_BOX.Left, TOTAL_BOX.Top]);

    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  }, 180_000);
});
