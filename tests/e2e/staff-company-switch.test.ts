import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('the staff company switcher', () => {
  it('lets staff look into another company, read only under a banner, and go back', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'admin@voltfolio.test', '/');
    await page
      .getByRole('button', { name: /account|user/i })
      .first()
      .click();
    await page.getByText('Northwind', { exact: false }).first().click();
    const banner = page.getByRole('status', { name: 'Staff view' });
    await banner.getByText(/read only: you are looking into Northwind/).waitFor({ timeout: 30_000 });
    // The company's sites are listed, with nothing offered that would change them.
    await page.goto(`${env.stack.origin}/assets`);
    await page.getByRole('heading', { name: 'Sites' }).waitFor({ timeout: 30_000 });
    await page.getByRole('table').first().waitFor({ timeout: 30_000 });
    expect(await page.getByRole('link', { name: 'Add a site' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import CSV' }).count()).toBe(0);
    await banner.getByRole('button', { name: 'Back to my company' }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
