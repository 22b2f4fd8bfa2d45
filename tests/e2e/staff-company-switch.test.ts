import { describe, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('the staff company switcher', () => {
  it('lets staff look into another company under a banner, and go back', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'admin@voltfolio.test', '/');
    await page
      .getByRole('button', { name: /account|user/i })
      .first()
      .click();
    await page.getByText('Northwind', { exact: false }).first().click();
    const banner = page.getByRole('status', { name: 'Staff view' });
    await banner.getByText(/looking into Northwind/).waitFor({ timeout: 30_000 });
    await banner.getByRole('button', { name: 'Back to my company' }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
