import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

const tab = openPagePerTest(env);

const visible = (text: string | RegExp, timeout = 15_000) =>
  expect.poll(() => tab.page.getByText(text).first().isVisible(), { timeout }).toBe(true);

describe("a site's floor-area history", () => {
  it('is entered in the unit the site is shown in, refused with the period and field at fault, and kept', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/assets');
    const link = page.getByRole('link', { name: 'Hardman Court' });
    await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true);
    await link.click();
    await page.waitForURL(/\/assets\/[0-9a-f]{24}\/overview$/);
    const manage = page.url().replace(/\/overview$/, '/manage');
    await page.goto(manage);

    // The site is entered in ft² from now on: the area typed is in ft², and so are the history's areas.
    const details = page.getByRole('form', { name: 'Site details' });
    await expect.poll(() => details.isVisible(), { timeout: 15_000 }).toBe(true);
    await details.getByLabel('Floor area').fill('50,000');
    await details.getByLabel('Unit').selectOption('ft2');
    await details.getByRole('button', { name: 'Save details' }).click();
    await visible('Details updated successfully!');

    await page.reload();
    const history = page.getByRole('form', { name: 'Floor-area history' });
    await expect.poll(() => history.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('form', { name: 'Site details' }).getByLabel('Floor area').inputValue()).toBe(
      '50000',
    );
    await history.getByRole('button', { name: 'Add period' }).click();
    await history.getByRole('button', { name: 'Add period' }).click();
    await history.getByLabel('Period 1 from').fill('2023-01-01');
    await history.getByLabel('Period 1 to').fill('2023-06-30');
    await history.getByLabel('Period 1 floor area').fill('40,000');
    await history.getByLabel('Period 2 from').fill('2023-06-15');
    await history.getByLabel('Period 2 floor area').fill('0');
    expect(await history.getByRole('columnheader', { name: 'Floor area (ft²)' }).count()).toBe(1);
    await history.getByRole('button', { name: 'Save history' }).click();
    await visible('Overlaps the period from 2023-01-01');
    await visible('Must be greater than 0');

    await history.getByLabel('Period 2 from').fill('2023-07-01');
    await history.getByLabel('Period 2 floor area').fill('50000');
    await history.getByRole('button', { name: 'Save history' }).click();
    await visible('Floor-area history saved');

    // Stored in m² and shown again in ft², as entered.
    await page.reload();
    const saved = page.getByRole('form', { name: 'Floor-area history' });
    await expect.poll(() => saved.getByLabel('Period 1 from').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await saved.getByLabel('Period 1 from').inputValue()).toBe('2023-01-01');
    expect(await saved.getByLabel('Period 1 to').inputValue()).toBe('2023-06-30');
    expect(await saved.getByLabel('Period 1 floor area').inputValue()).toBe('40000');
    expect(await saved.getByLabel('Period 2 from').inputValue()).toBe('2023-07-01');
    expect(await saved.getByLabel('Period 2 to').inputValue()).toBe('');
    expect(await saved.getByLabel('Period 2 floor area').inputValue()).toBe('50000');

    await page.goto(manage.replace(/\/manage$/, '/overview'));
    await visible('50,000 ft²');
  });
});
