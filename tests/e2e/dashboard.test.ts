import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD, signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

const grid = (page: Page) => page.getByLabel('Dashboard widgets', { exact: true });

/** The widgets' titles in the order the grid shows them. */
async function order(page: Page): Promise<string[]> {
  const regions = grid(page).getByRole('region');
  const count = await regions.count();
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((await regions.nth(i).getAttribute('aria-label')) ?? '');
  return out;
}

describe('the home dashboard', () => {
  it('shows widgets with figures, and keeps a widget added and an order dragged across a reload', async () => {
    const page = tab.page;
    await signIn(page, env.stack.origin, 'owner@demo.test');
    await grid(page).waitFor({ state: 'visible', timeout: 20_000 });

    // The seeded bills give the company's emissions, consumption and cost figures.
    for (const title of ['Emissions', 'Consumption', 'Cost']) {
      await expect
        .poll(() => page.getByLabel(`${title} figure`, { exact: true }).first().textContent(), {
          timeout: 20_000,
        })
        .toMatch(/[1-9]/);
    }
    await expect.poll(() => page.getByLabel(`Emissions figure`).first().textContent()).toMatch(/tCO₂e$/);
    expect(await page.getByRole('figure', { name: /Emissions by period/ }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Add widget' }).click();
    const form = page.getByRole('form', { name: 'New widget' });
    await form.getByLabel('Widget type').selectOption('top-sites');
    const title = `Biggest emitters ${Date.now().toString(36)}`;
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Period').selectOption('last-year');
    await form.getByRole('button', { name: 'Add' }).click();
    const added = grid(page).getByRole('region', { name: title });
    await added.waitFor({ state: 'visible', timeout: 15_000 });
    await expect
      .poll(() => added.getByRole('table', { name: `${title} breakdown` }).count(), { timeout: 20_000 })
      .toBe(1);
    expect((await order(page)).at(-1)).toBe(title);

    // Drag the first widget one place on with the keyboard, as the drag handle allows.
    const before = await order(page);
    const [first = '', second = ''] = before;
    const handle = page.getByRole('button', { name: `Move ${first}`, exact: true });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(300);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    const expected = [second, first, ...before.slice(2)];
    await expect.poll(() => order(page), { timeout: 10_000 }).toEqual(expected);
    await page.waitForLoadState('networkidle');

    await page.reload();
    await grid(page).waitFor({ state: 'visible', timeout: 20_000 });
    await expect.poll(() => order(page), { timeout: 15_000 }).toEqual(expected);
  });

  it("shows a meter's data quality on its own page", async () => {
    const { accessToken } = await signInForToken({
      baseUrl: env.stack.origin,
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
    });
    const res = await fetch(`${env.stack.apiUrl}/accounts?type=electricity&limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const { data } = (await res.json()) as { data: { _id: string; assetId: string }[] };
    const meter = data[0];
    if (!meter) throw new Error('The demo has no electricity meter');
    await signIn(
      tab.page,
      env.stack.origin,
      'owner@demo.test',
      `/assets/${meter.assetId}/accounts/${meter._id}/data-quality`,
    );
    await expect
      .poll(() => tab.page.getByLabel('Days covered by bills', { exact: true }).textContent(), {
        timeout: 20_000,
      })
      .toMatch(/^\d+(\.\d)?%$/);
    await tab.page.getByRole('table', { name: 'Data quality findings' }).waitFor({ state: 'visible' });
    expect(await tab.page.getByText('not available yet').count()).toBe(0);
  });
});
