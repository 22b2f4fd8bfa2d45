import type { Locator, Page } from 'playwright-core';
import { signIn } from './browser.ts';

/** Signs the demo owner in and opens Hardman Court's discussion page at its "Start a discussion" form. */
export async function openStartDiscussion(page: Page, origin: string): Promise<Locator> {
  await signIn(page, origin, 'owner@demo.test', '/assets');
  await page.getByRole('link', { name: 'Hardman Court' }).first().click();
  await page
    .getByRole('navigation', { name: 'Site pages' })
    .getByRole('link', { name: 'Discussion' })
    .click();
  const start = page.getByRole('form', { name: 'Start a discussion' });
  await start.waitFor({ timeout: 20_000 });
  return start;
}
