import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { createPreviewedKiosk } from './support/kiosks.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('/admin/kiosks', () => {
  it('creates a kiosk with its slides reordered, previews it, pairs a screen and unpairs it', async () => {
    const { page } = tab;
    await signIn(page, env.stack.origin, 'admin@voltfolio.test', '/admin/kiosks');
    const card = await createPreviewedKiosk(page, 'Atrium screen');

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
