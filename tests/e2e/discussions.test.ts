import { describe, expect, it } from 'vitest';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { openStartDiscussion } from './support/discussions.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe('discussions on a site', () => {
  it('starts a thread, replies to it and resolves it', async () => {
    const page = tab.page;
    const start = await openStartDiscussion(page, env.stack.origin);
    // No title: the server's message stands beside the field.
    await start.getByRole('button', { name: 'Start discussion' }).click();
    await start.getByText('This field is required').waitFor({ timeout: 15_000 });
    await start.getByLabel('Title').fill('Boiler room key');
    await start.getByLabel('Category').selectOption('Site access');
    await start.getByLabel('Message').fill('Who holds the key to the boiler room?');
    await start.getByRole('button', { name: 'Start discussion' }).click();

    await page.getByRole('heading', { name: 'Boiler room key' }).waitFor({ timeout: 15_000 });
    expect(page.url()).toMatch(/\/discussion\/[0-9a-f]{24}$/);
    const list = page.getByRole('navigation', { name: 'Discussions of this site' });
    await list.getByText('Boiler room key').waitFor({ timeout: 15_000 });

    const reply = page.getByRole('form', { name: 'Reply' });
    await reply.getByLabel('Your reply').fill('The caretaker has it.');
    await reply.getByRole('button', { name: 'Send reply' }).click();
    const replies = page.getByRole('article');
    await replies.getByText('The caretaker has it.').waitFor({ timeout: 15_000 });
    expect(await reply.getByLabel('Your reply').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Mark resolved' }).click();
    await page.getByRole('button', { name: 'Reopen' }).waitFor({ timeout: 15_000 });
    // Resolved threads leave the list of open ones.
    await list.getByText('Boiler room key').waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByLabel('Show discussions').getByText('Resolved', { exact: true }).click();
    await list.getByText('Boiler room key').waitFor({ timeout: 15_000 });
  });
});
