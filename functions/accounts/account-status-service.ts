import type { Operation, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { answeredItem } from '../core/resources/generic-answers.ts';
import { GENERIC_OPERATIONS } from '../core/resources/resource-service.ts';
import { getAccount } from './account-links.ts';
import { setAccountStatus, statusHistoryOf } from './account-repository.ts';

/**
 * The account's status follows its status history: the latest entry dated today or earlier decides it
 * (an entry dated later is a planned change, which takes effect when the next entry is written after its
 * date). Returns the status the account has afterwards.
 */
export async function syncAccountStatus(companyId: string, accountId: string): Promise<string | undefined> {
  const account = await getAccount(companyId, accountId);
  if (!account) return undefined;
  const today = new Date().toISOString().slice(0, 10);
  const entries = (await statusHistoryOf(companyId, accountId))
    .filter((e) => e.deleted !== true && typeof e.date === 'string' && e.date <= today)
    .sort((a, b) => `${a.date}${a.createdAt}`.localeCompare(`${b.date}${b.createdAt}`));
  const latest = entries.at(-1)?.status;
  if (typeof latest !== 'string' || latest === account.status) return String(account.status);
  await setAccountStatus(companyId, accountId, latest, new Date().toISOString());
  return latest;
}

function followed(op: string): Operation {
  const generic = GENERIC_OPERATIONS[op];
  if (!generic) throw new Error(`No generic operation ${op}`);
  return operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
    const result = await generic(ctx);
    const accountStatus = await syncAccountStatus(ctx.caller.companyId, ctx.params.id);
    return { ...result, body: { ...answeredItem(result), accountStatus } };
  });
}

export const ACCOUNT_STATUS_OPERATIONS: Operations = {
  'accounts.statusHistory.create': followed('generic.sub.create'),
  'accounts.statusHistory.update': followed('generic.sub.update'),
  'accounts.statusHistory.delete': followed('generic.sub.delete'),
};
