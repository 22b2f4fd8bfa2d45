import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();

const GROUP = 'Demo Estates Group plc';

const tab = openPagePerTest(env);

/** The names of the entities directly below `parent` in the tree on the page. */
async function subsidiariesOf(parent: string): Promise<string[]> {
  const list = tab.page.getByRole('list', { name: `Subsidiaries of ${parent}`, exact: true });
  await list.waitFor({ timeout: 15_000 });
  return list.locator(':scope > li > div a').allTextContents();
}

describe('the entity tree', () => {
  it('shows the Demo Estates group with its three subsidiaries and their sites', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/entities');
    const tree = tab.page.getByRole('list', { name: 'Entity structure' });
    await tree.waitFor({ timeout: 15_000 });
    expect(await tree.locator(':scope > li > div a').allTextContents()).toEqual([GROUP]);
    expect(await subsidiariesOf(GROUP)).toEqual([
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Retail Ltd',
    ]);
    const offices = tree
      .locator('li', { has: tab.page.getByRole('link', { name: 'Demo Estates Offices Ltd' }) })
      .last();
    expect(await offices.getByText(/^\d+ assets?$/).textContent()).toMatch(/^[1-9]\d* assets?$/);
  });

  it('adds an entity made with the wizard to the tree, under the parent chosen', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/entities');
    await tab.page.getByRole('link', { name: 'New entity' }).click();
    await tab.page.waitForURL(/\/new-entity$/);
    await tab.page.getByRole('button', { name: 'Next' }).click();
    await tab.page.getByText('This field is required').waitFor({ state: 'visible', timeout: 10_000 });

    await tab.page.getByLabel('Legal name').fill('Demo Estates Residential Ltd');
    await tab.page.getByLabel('Company number').fill('15550123');
    await tab.page.getByRole('button', { name: 'Next' }).click();
    await tab.page.getByLabel('Parent entity').selectOption({ label: GROUP });
    await tab.page.getByLabel('Postcode').fill('EC3V 0BT');
    await tab.page.getByRole('button', { name: 'Next' }).click();
    const review = tab.page.getByRole('table', { name: 'Review' });
    await review.waitFor();
    expect(await review.textContent()).toContain(GROUP);
    await tab.page.getByRole('button', { name: 'Create entity' }).click();

    await tab.page.waitForURL(/\/entities\/[0-9a-f]{24}\/structure$/, { timeout: 15_000 });
    const current = tab.page.locator('a[aria-current="page"]');
    await current.waitFor({ timeout: 15_000 });
    expect(await current.textContent()).toBe('Demo Estates Residential Ltd');
    expect(await subsidiariesOf(GROUP)).toContain('Demo Estates Residential Ltd');

    await tab.page.getByRole('link', { name: 'Entities' }).first().click();
    await tab.page.waitForURL(/\/entities$/);
    expect(await subsidiariesOf(GROUP)).toEqual([
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Residential Ltd',
      'Demo Estates Retail Ltd',
    ]);
  });
});

describe('moving an entity', () => {
  const OFFICES = 'Demo Estates Offices Ltd';
  const RETAIL = 'Demo Estates Retail Ltd';
  const LOGISTICS = 'Demo Estates Logistics Ltd';

  /** The id of an entity in the tree of /entities, from its link. */
  async function entityId(on: Page, name: string): Promise<string> {
    const link = on.getByRole('link', { name, exact: true }).first();
    await link.waitFor({ timeout: 15_000 });
    const href = (await link.getAttribute('href')) ?? '';
    return href.split('/')[2] ?? '';
  }

  async function chooseParent(on: Page, name: string) {
    const select = on.getByLabel('Parent entity');
    const value = await select.locator('option', { hasText: name }).getAttribute('value');
    await select.selectOption(value ?? '');
  }

  it('refuses a move under its own subsidiary beside the field, then moves it and the tree shows it', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/entities');
    const offices = await entityId(tab.page, OFFICES);
    const retail = await entityId(tab.page, RETAIL);
    await tab.page.goto(`${env.stack.origin}/entities/${offices}/edit`);
    await tab.page
      .getByLabel('Parent entity')
      .locator('option', { hasText: RETAIL })
      .waitFor({ state: 'attached' });

    // Meanwhile someone else puts Retail under Offices: this page's list of parents is now out of date.
    const other = await env.browser.newContext();
    try {
      const otherPage = await other.newPage();
      await signIn(otherPage, env.stack.origin, 'owner@demo.test', `/entities/${retail}/edit`);
      await chooseParent(otherPage, OFFICES);
      await otherPage.getByRole('button', { name: 'Save' }).click();
      await otherPage.waitForURL(/\/structure$/, { timeout: 15_000 });
    } finally {
      await other.close();
    }

    await chooseParent(tab.page, RETAIL);
    await tab.page.getByRole('button', { name: 'Save' }).click();
    const refusal = tab.page.getByText(
      'An entity cannot be moved under itself or one of its own subsidiaries.',
    );
    await expect.poll(() => refusal.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(tab.page.url()).pathname).toBe(`/entities/${offices}/edit`);

    await chooseParent(tab.page, LOGISTICS);
    expect(await refusal.count()).toBe(0);
    await tab.page.getByRole('button', { name: 'Save' }).click();
    await tab.page.waitForURL(/\/structure$/, { timeout: 15_000 });
    await tab.page.goto(`${env.stack.origin}/entities`);
    await expect.poll(() => subsidiariesOf(LOGISTICS), { timeout: 15_000 }).toContain(OFFICES);
    expect(await subsidiariesOf(GROUP)).not.toContain(OFFICES);
    expect(await subsidiariesOf(OFFICES)).toContain(RETAIL);
  });
});

describe('editing an entity', () => {
  it('empties the company number and address fields, and after a reload they stay empty', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/entities');
    const link = tab.page.getByRole('link', { name: 'Demo Estates Logistics Ltd', exact: true }).first();
    await link.waitFor({ timeout: 15_000 });
    const edit = `${env.stack.origin}/entities/${((await link.getAttribute('href')) ?? '').split('/')[2]}/edit`;
    const field = (label: string) => tab.page.getByLabel(label);
    const save = async () => {
      await tab.page.getByRole('button', { name: 'Save' }).click();
      await tab.page.waitForURL(/\/structure$/, { timeout: 15_000 });
      await tab.page.goto(edit);
      await expect.poll(() => field('Legal name').inputValue(), { timeout: 15_000 }).not.toBe('');
    };

    await tab.page.goto(edit);
    await expect.poll(() => field('Company number').inputValue(), { timeout: 15_000 }).toBe('10458832');
    await field('Company number').fill('');
    await field('Postcode').fill('');
    await save();
    expect(await field('Company number').inputValue()).toBe('');
    expect(await field('Postcode').inputValue()).toBe('');
    expect(await field('Street address').inputValue()).toBe('40 Gracechurch Street');

    for (const label of ['Street address', 'Town or city', 'Region', 'Country']) await field(label).fill('');
    await save();
    for (const label of ['Street address', 'Town or city', 'Region', 'Postcode', 'Country'])
      expect(await field(label).inputValue(), label).toBe('');
    expect(await field('Legal name').inputValue()).toBe('Demo Estates Logistics Ltd');
  });
});
