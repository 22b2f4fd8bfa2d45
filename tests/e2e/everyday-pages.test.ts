import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env, { viewport: { width: 1100, height: 800 } });

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 15_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

/** A demo bill imported as data (no document), with the site and meter it belongs to. */
async function billWithoutDocument(): Promise<{ invoiceNumber: string; accountId: string; assetId: string }> {
  const summary = env.stack.stack.seed?.summary as { companies?: { id: string; name: string }[] } | undefined;
  const demoId = summary?.companies?.find((c) => c.name === 'Demo Estates Ltd')?.id;
  const db = DynamoDBDocumentClient.from(env.stack.stack.dynamo.client);
  const TableName = env.stack.env.TABLE_NAME;
  let startKey: Record<string, unknown> | undefined;
  let found: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression:
          'attribute_not_exists(#key) AND attribute_exists(accountId) AND attribute_exists(invoiceNumber) AND isCreditNote = :no',
        ExpressionAttributeNames: { '#key': 'key' },
        ExpressionAttributeValues: { ':pk': `C#${demoId}#invoices`, ':no': false },
        ExclusiveStartKey: startKey,
      }),
    );
    found = page.Items?.[0];
    startKey = page.LastEvaluatedKey;
  } while (!found && startKey);
  if (!found) throw new Error('The demo has no bill imported without a document');
  const accountId = String(found.accountId);
  const account = await db.send(
    new GetCommand({ TableName, Key: { pk: `C#${demoId}#accounts`, sk: accountId } }),
  );
  return { invoiceNumber: String(found.invoiceNumber), accountId, assetId: String(account.Item?.assetId) };
}

describe('the sites list', () => {
  it('shows whole badges, and offers "Add a site" only to those the wizard admits', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/assets');
    const table = tab.page.getByRole('table').first();
    await visible(table.getByLabel(/^EPC band [A-G]$/).first());
    await visible(tab.page.getByRole('link', { name: 'Add a site' }));
    // Every badge's text fits inside it: nothing cut to "EP…" or "IN DEVELOPM…".
    const clipped = await tab.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('table .mantine-Badge-root')]
        .filter((b) => {
          const label = b.querySelector<HTMLElement>('.mantine-Badge-label') ?? b;
          return b.scrollWidth > b.clientWidth + 1 || label.scrollWidth > label.clientWidth + 1;
        })
        .map((b) => b.textContent),
    );
    expect(clipped).toEqual([]);
    expect(await table.getByText('In development').count()).toBeGreaterThan(0);

    const asset = await env.browser.newContext();
    const page = await asset.newPage();
    await signIn(page, env.stack.origin, 'asset@demo.test', '/assets');
    await visible(page.getByRole('link', { name: 'Hardman Court' }));
    expect(await page.getByRole('link', { name: 'Add a site' }).count()).toBe(0);
    await asset.close();
  });
});

describe('an account’s bills', () => {
  it('offers no download for a bill imported without a document', async () => {
    const bill = await billWithoutDocument();
    await signIn(
      tab.page,
      env.stack.origin,
      'owner@demo.test',
      `/assets/${bill.assetId}/accounts/${bill.accountId}/invoices`,
    );
    const row = tab.page.getByRole('row', { name: new RegExp(bill.invoiceNumber) });
    await visible(row);
    expect(await row.getByRole('button', { name: /^Download/ }).count()).toBe(0);
    expect(await row.textContent()).toContain('No file');
  });
});

describe('Bill Validation', () => {
  it('lists each bill with its site, meter, period and amount, and highlights one navigation entry', async () => {
    await signIn(tab.page, env.stack.origin, 'owner@demo.test', '/invoice-validation/failed');
    const table = tab.page.getByRole('table', { name: 'Invoices' });
    await visible(table);
    const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.trim());
    expect(headers).toEqual(
      expect.arrayContaining(['Invoice', 'Site and meter', 'Period', 'Amount', 'File']),
    );
    const row = table.getByRole('row').nth(1);
    const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
    const at = (name: string) => cells[headers.indexOf(name)] ?? '';
    expect(at('Site and meter')).not.toBe('');
    expect(at('Site and meter')).not.toContain('No site matched');
    expect(at('Period')).toMatch(/^\d{2}\/\d{2}\/\d{4} – \d{2}\/\d{2}\/\d{4}$/);
    expect(at('Amount')).toMatch(/^-?£[\d,]+\.\d{2}$/);
    // The invoice is named by its number; the file name has a column of its own.
    expect(at('Invoice')).not.toContain(at('File') || '\u0000');

    const nav = tab.page.getByRole('navigation', { name: 'Main' });
    expect(await nav.locator('a[data-active]').allTextContents()).toEqual(['Bill Validation']);
    await nav.getByRole('link', { name: 'Bill Validation BETA' }).click();
    await tab.page.waitForURL(/\/invoice-validation\/invoice-captures$/);
    await expect
      .poll(() => nav.locator('a[data-active]').allTextContents(), { timeout: 10_000 })
      .toEqual(['Bill Validation BETA']);
  });
});
