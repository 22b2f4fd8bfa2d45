import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('/admin/kiosks', () => {
  it('creates a kiosk with its slides reordered, previews it, pairs a screen and unpairs it', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'admin@voltfolio.test', '/admin/kiosks');
    const form = page.getByRole('region', { name: 'New kiosk' });
    await form.getByLabel('Name').fill('Atrium screen');
    await form.getByLabel('Site').click();
    await page.getByRole('option').first().click();
    await form.getByRole('checkbox', { name: 'News' }).uncheck();
    await form.getByRole('button', { name: 'Move Carbon up' }).click();
    await form.getByRole('button', { name: 'Create kiosk' }).click();
    await form.getByText("The screen's address, shown this once").waitFor({ timeout: 15_000 });

    const card = page.getByRole('region', { name: 'Kiosk Atrium screen' });
    await card.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => card.getByRole('region', { name: 'Preview' }).textContent(), { timeout: 15_000 })
      .toContain('Leaderboard → Consumption → Carbon → Energy Usage');

    await card.getByLabel('Pairing code on the signage screen').fill('ATR1UM');
    await card.getByRole('button', { name: 'Pair screen' }).click();
    await card.getByRole('status').filter({ hasText: 'paired: it now shows this kiosk' }).waitFor();
    const screens = page.getByRole('table', { name: 'Paired screens' });
    const row = screens.getByRole('row').filter({ hasText: 'Atrium screen' });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: /^Unpair / }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
  });
});
