import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { createPreviewedKiosk } from './support/kiosks.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('the staff admin pages', () => {
  it('take staff from the counts to settings, the log, e-mails, a site of any company and a new kiosk', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'admin@voltfolio.test', '/admin');
    await page.getByRole('heading', { name: 'Admin dashboard' }).waitFor({ timeout: 20_000 });
    await page
      .getByRole('table', { name: 'Queues' })
      .getByText('capture-dlq')
      .or(page.getByText('capture'))
      .first()
      .waitFor();
    expect(await page.getByText('Bills captured this month').isVisible()).toBe(true);

    await page.goto(`${env.stack.origin}/admin/settings`);
    const limit = page.getByLabel('Most pages in a bill');
    await limit.fill('64');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Most pages in a bill').inputValue(), { timeout: 15_000 })
      .toBe('64');

    await page.goto(`${env.stack.origin}/admin/log`);
    await page.getByRole('heading', { name: 'Activity log' }).waitFor();
    await page.getByLabel('Record type').fill('product-settings');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page
      .getByRole('table', { name: 'Activity' })
      .getByText('product-settings')
      .first()
      .waitFor({ timeout: 15_000 });

    await page.goto(`${env.stack.origin}/admin/emails`);
    await page.getByRole('heading', { name: 'E-mails' }).waitFor();

    await page.goto(`${env.stack.origin}/admin/tools/asset`);
    await page.getByLabel('Site name, street or postcode').fill('Street');
    const open = page.getByRole('button', { name: /^Open / }).first();
    await open.waitFor({ timeout: 15_000 });
    await open.click();
    await page.getByText('Read only').waitFor();

    await page.goto(`${env.stack.origin}/admin/tools/websocket`);
    await page.getByRole('heading', { name: 'Live connections' }).waitFor();

    await page.goto(`${env.stack.origin}/admin/kiosks`);
    await createPreviewedKiosk(page, 'Reception wall');
  });
});
