import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BrowserStack } from './browser-stack.ts';

/** Where capture would have placed the total on the demo bill's page. */
export const TOTAL_BOX = { Left: 0.58, Top: 0.62, Width: 0.3, Height: 0.04 };

export interface CapturedBill {
  invoiceNumber: string;
  accountId: string;
  meterName: string;
  utilityType: string;
  assetId: string;
  siteName: string;
  /** YYYY-MM-DD */
  start: string;
  end: string;
  month: string;
  grossTotal: number;
  /** The member named as having confirmed it, when asked to be. */
  confirmedBy?: string;
}

/**
 * A demo bill that came as a PDF: captured last month and awaiting review, already counted in its month.
 * The demo's capture results keep each value's page but not its box, so the total is given the box
 * capture would have kept for it. With `confirmedBy` (a member's email), the bill is marked as confirmed
 * by that member, as confirming it would.
 */
export async function capturedBill(env: BrowserStack, confirmedBy?: string): Promise<CapturedBill> {
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

  let confirmer: { sub: string; name: string } | undefined;
  if (confirmedBy) {
    const members = await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'email = :email',
        ExpressionAttributeValues: { ':pk': `C#${demoId}#users`, ':email': confirmedBy },
      }),
    );
    const member = members.Items?.[0];
    if (!member) throw new Error(`${confirmedBy} is not a member of the demo company`);
    confirmer = { sub: String(member.sk), name: String(member.name ?? member.email) };
  }
  await db.send(
    new UpdateCommand({
      TableName,
      Key: { pk: found.pk, sk: found.sk },
      UpdateExpression: `SET results.#values.grossTotal.bbox = :box${confirmer ? ', confirmedBy = :by, confirmedAt = :at' : ''}`,
      ExpressionAttributeNames: { '#values': 'values' },
      ExpressionAttributeValues: {
        ':box': TOTAL_BOX,
        ...(confirmer ? { ':by': confirmer.sub, ':at': new Date().toISOString() } : {}),
      },
    }),
  );
  const accountId = String(found.accountId);
  const account = await db.send(
    new GetCommand({ TableName, Key: { pk: `C#${demoId}#accounts`, sk: accountId } }),
  );
  const assetId = String(account.Item?.assetId);
  // The figures as the bill states them, before what the invoice item holds beside them.
  const values = (found.values ?? {}) as Record<string, unknown>;
  const start = String(values.startDate ?? found.invoiceStartDate).slice(0, 10);
  const site = await db.send(new GetCommand({ TableName, Key: { pk: `C#${demoId}#assets`, sk: assetId } }));
  return {
    invoiceNumber: String(found.invoiceNumber),
    accountId,
    meterName: String(account.Item?.name),
    utilityType: String(account.Item?.type),
    assetId,
    siteName: String(site.Item?.siteName),
    start,
    end: String(values.endDate ?? found.invoiceEndDate).slice(0, 10),
    month: start.slice(0, 7),
    grossTotal: Number(values.grossTotal ?? found.grossTotal),
    ...(confirmer ? { confirmedBy: confirmer.name } : {}),
  };
}
