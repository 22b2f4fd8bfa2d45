import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Creates a kiosk on the first site from the "New kiosk" form of `/admin/kiosks` (already open), with the
 * News slide left out and Carbon moved up, and previews it: the preview lists the slides in that order.
 * Answers the kiosk's card.
 */
export async function createPreviewedKiosk(page: Page, name: string): Promise<Locator> {
  const form = page.getByRole('region', { name: 'New kiosk' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Site').click();
  await page.getByRole('option').first().click();
  await form.getByRole('checkbox', { name: 'News' }).uncheck();
  await form.getByRole('button', { name: 'Move Carbon up' }).click();
  await form.getByRole('button', { name: 'Create kiosk' }).click();
  await form.getByText("The screen's address, shown this once").waitFor({ timeout: 15_000 });
  const card = page.getByRole('region', { name: `Kiosk ${name}` });
  await card.getByRole('button', { name: 'Preview' }).click();
  await expect
    .poll(() => card.getByRole('region', { name: 'Preview' }).textContent(), { timeout: 15_000 })
    .toContain('Leaderboard → Consumption → Carbon → Energy Usage');
  return card;
}
