import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { openStartDiscussion } from './support/discussions.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

describe("files on a discussion's opening post", () => {
  it('attaches a PDF when starting a thread, shows it on the thread and downloads the same bytes', async () => {
    const page = tab.page;
    const start = await openStartDiscussion(page, env.stack.origin);
    const subject = `Meter cupboard survey ${Date.now()}`;
    const pdf = Buffer.from(`%PDF-1.4\n% survey of the meter cupboard, ${subject}\n%%EOF\n`);
    await start.getByLabel('Title').fill(subject);
    await start.getByLabel('Message').fill('The survey is attached.');
    await start.getByLabel('Attachment (PDF or picture)').setInputFiles({
      name: 'cupboard-survey.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await start.getByRole('button', { name: 'Start discussion' }).click();

    await page.getByRole('heading', { name: subject }).waitFor({ timeout: 20_000 });
    const files = page.getByLabel('Files of the discussion');
    const file = files.getByRole('button', { name: 'cupboard-survey.pdf' });
    await expect.poll(() => file.isVisible(), { timeout: 15_000 }).toBe(true);

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), file.click()]);
    expect(download.suggestedFilename()).toBe('cupboard-survey.pdf');
    expect(await readFile(await download.path())).toEqual(pdf);
  }, 180_000);
});
