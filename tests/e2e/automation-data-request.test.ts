import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('a data-request automation', () => {
  it("asks for the contact, the site and what to ask for, and needs the contact's e-mail", async () => {
    const page = tab.page;
    await signIn(page, env.stack.origin, 'owner@demo.test', '/automation/manage');
    const form = page.getByRole('form', { name: 'New automation' });
    await form.waitFor({ timeout: 20_000 });
    // A template without a contact asks for none.
    expect(await form.getByLabel("Contact's e-mail").count()).toBe(0);

    const name = `Readings from Hardman Court ${Date.now()}`;
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await form.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'E-mail a data request to a site contact' }).click();
    const email = form.getByRole('textbox', { name: "Contact's e-mail" });
    await email.waitFor({ timeout: 15_000 });
    expect(
      await form
        .getByText("Their reply goes to the company's bill inbox; they need no sign-in.", { exact: true })
        .count(),
    ).toBe(1);
    const add = form.getByRole('button', { name: 'Add automation' });
    expect(await add.isDisabled()).toBe(true);

    await email.fill('caretaker@hardman.example');
    await form.getByRole('textbox', { name: "Contact's name" }).fill('Pat Caretaker');
    await form.getByRole('combobox', { name: 'Site' }).fill('Hardman');
    await page.getByRole('option', { name: 'Hardman Court' }).first().click();
    await form.getByRole('combobox', { name: 'Ask for' }).click();
    await page.getByRole('option', { name: 'A bill', exact: true }).click();
    expect(await add.isDisabled()).toBe(false);
    const [sent] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/automations')),
      add.click(),
    ]);
    expect(sent.postDataJSON()).toMatchObject({
      name,
      templateId: 'data-request',
      contactEmail: 'caretaker@hardman.example',
      contactName: 'Pat Caretaker',
      assetId: expect.stringMatching(/^[0-9a-f]{24}$/),
      requestKind: 'bill',
    });

    const row = page.getByRole('table', { name: 'Automations' }).getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.textContent()).toContain('E-mail a data request to a site contact');
  }, 180_000);
});
