import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { periodLabel } from '../../web/features/accounts/consumption-shape.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

const TOTAL_BOX = { Left: 0.58, Top: 0.62, Width: 0.3, Height: 0.04 };

/**
 * A demo bill that came as a PDF: captured last month and awaiting review, already counted in its month.
 * The demo's capture results keep each value's page but not its box, so the total is given the box
 * capture would have kept for it.
 */
async function capturedBill(): Promise<{
  invoiceNumber: string;
  accountId: string;
  meterName: string;
  assetId: string;
  month: string;
}> {
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
        FilterExpression: '#status = :captured AND attribute_exists(#key) AND attribute_exists(accountId)',
        ExpressionAttributeNames: { '#status': 'status', '#key': 'key' },
        ExpressionAttributeValues: { ':pk': `C#${demoId}#invoices`, ':captured': 'captured' },
        ExclusiveStartKey: startKey,
      }),
    );
    found = page.Items?.[0];
    startKey = page.LastEvaluatedKey;
  } while (!found && startKey);
  if (!found) throw new Error('The demo has no captured bill with a document');
  await db.send(
    new UpdateCommand({
      TableName,
      Key: { pk: found.pk, sk: found.sk },
      UpdateExpression: 'SET results.#values.grossTotal.bbox = :box',
      ExpressionAttributeNames: { '#values': 'values' },
      ExpressionAttributeValues: { ':box': TOTAL_BOX },
    }),
  );
  const accountId = String(found.accountId);
  const account = await db.send(
    new GetCommand({ TableName, Key: { pk: `C#${demoId}#accounts`, sk: accountId } }),
  );
  return {
    invoiceNumber: String(found.invoiceNumber),
    accountId,
    meterName: String(account.Item?.name),
    assetId: String(account.Item?.assetId),
    month: String(found.invoiceStartDate).slice(0, 7),
  };
}

describe('where a figure comes from', () => {
  it('drills from a month of a meter to its site, back to the meter, its bill and the bill’s PDF with the total outlined', async () => {
    const bill = await capturedBill();
    const page = tab.page;
    await signIn(
      page,
      env.stack.origin,
      'owner@demo.test',
      `/assets/${bill.assetId}/accounts/${bill.accountId}/consumption`,
    );
    const link = page.getByRole('link', { name: `Where does ${periodLabel(bill.month)} come from?` });
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    await link.click();

    const panel = page.getByRole('dialog', { name: 'Where does this come from?' });
    await panel.waitFor({ state: 'visible', timeout: 15_000 });
    const crumbs = panel.getByRole('navigation', { name: 'Where you are in the figure' });
    // The meter's month, bill by bill: its parts add up to it.
    const bills = panel.getByRole('table', { name: 'Bills and other parts' });
    await bills.waitFor({ state: 'visible', timeout: 20_000 });
    await expect
      .poll(() => panel.getByTestId('provenance-check').textContent())
      .toBe('✓ The parts add up to the figure.');

    // Up to the site: its meters add up to the site's figure.
    await crumbs.getByRole('button').nth(1).click();
    const meters = panel.getByRole('table', { name: 'Meters' });
    await meters.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await panel.getByTestId('provenance-check').textContent()).toBe(
      '✓ The parts add up to the figure.',
    );
    expect(await meters.getByRole('row').count()).toBeGreaterThan(3);

    // Down again to the meter, and to the bill.
    await meters.getByRole('button', { name: bill.meterName, exact: true }).click();
    await bills.waitFor({ state: 'visible', timeout: 20_000 });
    await bills.getByRole('button', { name: `Bill ${bill.invoiceNumber}` }).click();

    // The bill: its share of the month, its factor and version, and that nobody has confirmed it yet.
    await panel.getByRole('heading', { name: /^Bill / }).waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('provenance-share').textContent()).toBe('100%');
    expect(await panel.getByTestId('provenance-factor').first().textContent()).toMatch(
      /version desnz-\d{4}-v1/,
    );
    expect(await panel.getByTestId('provenance-confirmation').textContent()).toBe(
      'Not confirmed yet: the bill awaits review',
    );

    await panel.getByRole('button', { name: 'View on the bill' }).click();
    await expect
      .poll(() => panel.getByTestId('page-indicator').textContent(), { timeout: 30_000 })
      .toBe('Page 1 of 1');
    const highlight = panel.getByTestId('value-highlight');
    await highlight.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await highlight.getAttribute('title')).toBe('Total');
    // The outline sits where the box says on the drawn page (both measured at once: the panel may still
    // be scrolling the outline into view).
    const where = () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-testid="value-highlight"]')?.getBoundingClientRect();
        const drawn = document.querySelector('canvas[data-rendered-page]')?.getBoundingClientRect();
        if (!box || !drawn) return undefined;
        const r = (v: number) => Math.round(v * 100) / 100;
        return [r((box.left - drawn.left) / drawn.width), r((box.top - drawn.top) / drawn.height)];
      });
    await expect.poll(where, { timeout: 10_000 }).toEqual([TOTAL_BOX.Left, TOTAL_BOX.Top]);

    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  }, 180_000);
});
