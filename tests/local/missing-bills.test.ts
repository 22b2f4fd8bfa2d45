import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  putCompany,
  putMembership,
  putValidationRuleChanges,
} from '../../functions/core/access/membership-repository.ts';
import {
  type CollectionRef,
  listItems,
  putItem,
  type StoredItem,
} from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { handler } from '../../functions/handlers/queue/missing-bills.ts';
import { missingBillsOf } from '../../functions/notifications/missing-bills-service.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { nextRun, parseScheduleExpression } from '../../infra/local/schedule-expression.ts';
import { SCHEDULES } from '../../shared/system/pipeline.ts';
import { findResource } from '../../shared/system/resources.ts';
import { DEFAULT_VALIDATION_RULES, type ValidationRule } from '../../shared/validation/rules.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

const RULE = DEFAULT_VALIDATION_RULES.find((r) => r.key === 'missing-bills') as ValidationRule;
const MONTH_OF_JANUARY = [{ invoiceStartDate: '2026-01-01', invoiceEndDate: '2026-01-31' }];
const account = (extra: Record<string, unknown> = {}): StoredItem => ({ _id: newId(), ...extra });

describe('missing bills of an account', () => {
  it('are missing once a whole cycle and the rule’s share of another have gone by', () => {
    // January's bill covers 31 days; 80% of a cycle more is 24.8 days: missing from 56 days on.
    expect(missingBillsOf(account(), MONTH_OF_JANUARY, RULE, '2026-03-27')).toBeUndefined();
    expect(missingBillsOf(account(), MONTH_OF_JANUARY, RULE, '2026-03-29')).toEqual({
      coveredUntil: '2026-01-31',
      from: '2026-02-01',
      days: 56,
      cycleDays: 31,
      count: 1,
    });
  });

  it("use the account's billing cycle and the company's threshold when there are", () => {
    const quarterly = account({ billingCycleDays: 91 });
    expect(missingBillsOf(quarterly, MONTH_OF_JANUARY, RULE, '2026-04-10')).toBeUndefined();
    const strict = { ...RULE, threshold: { value: 0, unit: '%' as const } };
    expect(missingBillsOf(account(), MONTH_OF_JANUARY, strict, '2026-03-04')?.days).toBe(31);
    expect(
      missingBillsOf(account(), MONTH_OF_JANUARY, { ...RULE, enabled: false }, '2026-09-01'),
    ).toBeUndefined();
  });

  it('count from the latest bill, leaving out credit notes and bills without dates', () => {
    const bills = [
      ...MONTH_OF_JANUARY,
      { invoiceStartDate: '2026-03-01', invoiceEndDate: '2026-03-31', isCreditNote: true },
      { invoiceNumber: 'no dates' },
    ];
    expect(missingBillsOf(account(), bills, RULE, '2026-04-10')?.from).toBe('2026-02-01');
    expect(missingBillsOf(account(), [], RULE, '2026-04-10')).toBeUndefined();
  });
});

let local: LocalStackHandle;
beforeAll(async () => {
  local = await startLocalStack({ pollers: true });
});
afterAll(() => local?.stop());

function ref(name: 'accounts' | 'invoices' | 'notifications', companyId: string): CollectionRef {
  const decl = findResource(name);
  if (!decl) throw new Error(`${name} is not declared`);
  return {
    pk: keys.collection({ companyId }, name),
    indexes: decl.indexes ?? [],
    searchFields: decl.searchFields,
  };
}

/** Members are company users unless they come with their own permissions and grants. */
async function company(name: string, members: (string | { sub: string; assetIds: string[] })[]) {
  const companyId = newId();
  await putCompany({ _id: companyId, name, settings: {} });
  for (const member of members) {
    const sub = typeof member === 'string' ? member : member.sub;
    const access =
      typeof member === 'string'
        ? { permissions: ['company_user'] }
        : {
            permissions: ['asset_user'],
            grants: {
              entities: { read: [], write: [] },
              assets: { read: member.assetIds, write: [] },
              accounts: { read: [], write: [] },
            },
          };
    await putMembership(companyId, { _id: sub, email: `${sub}@example.test`, companyId, ...access });
  }
  return companyId;
}

async function addAccount(
  companyId: string,
  name: string,
  status: 'active' | 'inactive',
  bills: object[],
  assetId = newId(),
) {
  const accountId = newId();
  await putItem(ref('accounts', companyId), {
    _id: accountId,
    companyId,
    name,
    type: 'electricity',
    meterPointNumber: '1200023456789',
    assetId,
    status,
  });
  for (const bill of bills) await addBill(companyId, accountId, bill);
  return accountId;
}

const addBill = (companyId: string, accountId: string, bill: object) =>
  putItem(ref('invoices', companyId), { _id: newId(), companyId, accountId, status: 'completed', ...bill });

const notifications = async (companyId: string) =>
  (await listItems(ref('notifications', companyId), { filters: {}, limit: 1000, skip: 0 })).data;

/** The schedule's message as the worker receives it (events/schedule.json), sent on `day`. */
function scheduleEvent(day: string): SQSEvent {
  const event = JSON.parse(readFileSync(join(REPO_ROOT, 'events', 'schedule.json'), 'utf8')) as SQSEvent;
  for (const record of event.Records)
    record.attributes.SentTimestamp = String(Date.parse(`${day}T06:00:00Z`));
  return event;
}

describe('the daily missing-bills check', () => {
  it('tells each member who may read the account once per account and missing period', async () => {
    const headOffice = newId();
    const companyId = await company('Missing Bills Ltd', [
      'sub-ann',
      'sub-bob',
      // A site user hears only of their own sites' meters.
      { sub: 'sub-eve', assetIds: [newId()] },
      { sub: 'sub-fay', assetIds: [headOffice] },
    ]);
    const late = await addAccount(
      companyId,
      'Head office electricity',
      'active',
      MONTH_OF_JANUARY,
      headOffice,
    );
    await addAccount(companyId, 'Billed gas', 'active', [
      { invoiceStartDate: '2026-03-01', invoiceEndDate: '2026-03-31' },
    ]);
    await addAccount(companyId, 'Closed water', 'inactive', MONTH_OF_JANUARY);
    await addAccount(companyId, 'Credited waste', 'active', [{ ...MONTH_OF_JANUARY[0], isCreditNote: true }]);
    const quiet = await company('Rule Off Ltd', ['sub-cat']);
    await putValidationRuleChanges(quiet, { 'missing-bills': { enabled: false } });
    await addAccount(quiet, 'Old electricity', 'active', MONTH_OF_JANUARY);

    expect(await handler(scheduleEvent('2026-04-10'))).toEqual({ batchItemFailures: [] });
    const first = await notifications(companyId);
    expect(first.map((n) => n.userSub).sort()).toEqual(['sub-ann', 'sub-bob', 'sub-fay']);
    for (const n of first) {
      expect(n).toMatchObject({ route: `/accounts/${late}`, isSeen: false });
      expect(n.content).toBe(
        'No bill has come for Head office electricity (1200023456789) since the period ending 31/01/2026 ' +
          '(68 days on a 31-day billing cycle): about 2 bills are missing. Ask the supplier.',
      );
    }
    expect(await notifications(quiet)).toEqual([]);

    // The next day, and a retry, tell nobody again about the same gap.
    await handler(scheduleEvent('2026-04-11'));
    await handler(scheduleEvent('2026-04-11'));
    expect(await notifications(companyId)).toHaveLength(3);

    // February's bill arrives; March's is still missing weeks later: a new gap, told once more.
    await addBill(companyId, late, { invoiceStartDate: '2026-02-01', invoiceEndDate: '2026-02-28' });
    await handler(scheduleEvent('2026-04-20'));
    expect(await notifications(companyId)).toHaveLength(3);
    await handler(scheduleEvent('2026-05-10'));
    const after = await notifications(companyId);
    expect(after).toHaveLength(6);
    expect(after.filter((n) => String(n.content).includes('period ending 28/02/2026'))).toHaveLength(3);
  });

  it('refuses a message that is not the check, so it ends in the dead-letter queue', async () => {
    const event = scheduleEvent('2026-04-10');
    const [record] = event.Records;
    if (!record) throw new Error('empty sample');
    record.body = '{"check":"something else"}';
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
  });

  it('runs from the schedule’s queue in the local stack, daily at 06:00 UTC', async () => {
    const [decl] = SCHEDULES.filter((s) => s.queue === 'missing-bills');
    if (!decl) throw new Error('no missing-bills schedule');
    expect(
      nextRun(parseScheduleExpression(decl.expression), new Date('2026-04-10T07:00:00Z')).toISOString(),
    ).toBe('2026-04-11T06:00:00.000Z');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const companyId = await company('Queue Check Ltd', ['sub-dan']);
    await addAccount(companyId, 'Stalled meter', 'active', [
      { invoiceStartDate: day(-120), invoiceEndDate: day(-91) },
    ]);
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: local.env.QUEUE_URL_MISSING_BILLS,
        MessageBody: JSON.stringify(decl.message),
      }),
    );
    await local.drainQueues(30_000);
    const told = await notifications(companyId);
    expect(told.map((n) => n.userSub)).toEqual(['sub-dan']);
  });
});
