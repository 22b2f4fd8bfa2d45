import { describe, expect, it } from 'vitest';
import { MARKETPLACE_MESSAGES } from '../../shared/schemas/carbon-marketplace.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('the carbon marketplace', () => {
  it('filters the catalogue, opens a project and registers interest in it', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/marketplace/carbon');
    const table = page.getByRole('table', { name: 'Carbon projects' });
    const rows = table.locator('tbody tr');
    await rows.first().waitFor({ timeout: 20_000 });
    const all = await rows.count();
    await page.getByLabel('Approach').selectOption('removal');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeLessThan(all);
    expect(await table.getByText('Avoidance').count()).toBe(0);

    const first = table.getByRole('link').first();
    const name = (await first.textContent()) ?? '';
    expect(name).toMatch(/^Example: /);
    await first.click();
    await page.getByRole('heading', { name }).waitFor();
    const form = page.getByRole('form', { name: 'Register interest' });
    await form.getByLabel('Tonnes').fill('25');
    await form.getByLabel('Note').fill('For next year’s report');
    await form.getByRole('button', { name: 'Register interest' }).click();
    await page.getByText(MARKETPLACE_MESSAGES.interestSent).waitFor({ timeout: 15_000 });
    await page.getByText('For next year’s report').waitFor({ timeout: 15_000 });
  });
});
