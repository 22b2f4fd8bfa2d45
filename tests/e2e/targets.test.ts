import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

const BASELINE = String(new Date().getUTCFullYear() - 3);

describe('targets', () => {
  it('sets a target, shown its mistakes beside the fields first, then follows its progress', async () => {
    const page = tab.page;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/targets/manage');
    const form = page.getByRole('form', { name: 'Target' });
    await form.waitFor({ timeout: 15_000 });

    // Nothing named and no reduction: the server's messages stand beside the two fields.
    await form.getByLabel('Measure').selectOption({ label: 'Energy (kWh)' });
    await form.getByLabel('Baseline year').fill(BASELINE);
    await form.getByRole('button', { name: 'Create target' }).click();
    const name = form.getByLabel('Name');
    await form.getByText('This field is required').first().waitFor({ timeout: 15_000 });
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Reduction (%)').getAttribute('aria-invalid')).toBe('true');

    await name.fill('Energy down a third');
    await form.getByLabel('Reduction (%)').fill('33');
    await form.getByRole('button', { name: 'Create target' }).click();
    const table = page.getByRole('table', { name: 'Targets' });
    await table.getByRole('cell', { name: 'Energy down a third' }).waitFor({ timeout: 15_000 });
    expect(await table.getByRole('cell', { name: 'Whole company' }).count()).toBe(1);
    expect(await name.inputValue()).toBe('');

    await page.goto(`${env.stack.origin}/targets/dashboard`);
    const card = page.getByRole('region', { name: 'Energy down a third' });
    await card.waitFor({ timeout: 30_000 });
    const status = card.getByText(/^(On track|Off track)$/);
    await status.waitFor({ timeout: 15_000 });
    expect(await card.getByText(`Baseline ${BASELINE}`).count()).toBe(1);
    // The gap to the path is given in kWh and in percent.
    expect(await card.getByTestId('gap').textContent()).toMatch(/kWh \([+-]?[\d.,]+%\)$/);
    if ((await status.textContent()) === 'Off track') {
      expect(
        await card.getByRole('table', { name: 'Sites behind the gap of Energy down a third' }).count(),
      ).toBe(1);
    }
  });
});
