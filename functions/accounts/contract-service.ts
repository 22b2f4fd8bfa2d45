import { CONTRACT_MESSAGES } from '../../shared/schemas/account-messages.ts';
import { ACCOUNT_MESSAGES } from '../../shared/schemas/account-rules.ts';
import { contractListQuery } from '../../shared/schemas/queries.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { listItems, type StoredItem } from '../core/data/item-repository.ts';
import { newId } from '../core/lib/ids.ts';
import { applyPatch } from '../core/lib/item-patch.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { findSupplier } from '../suppliers/index.ts';
import { routeAccount, throwIfAny } from './account-links.ts';
import { contractsRef } from './account-repository.ts';
import { verifyContractPdf } from './contract-file-service.ts';
import { changeContract, contractView, loadContract, saveContract } from './contract-store.ts';

/** An account's supply contracts (02 §7): add, change, remove, toggle, set rates; PDFs in contract-file-service. */

/** What the schema cannot judge alone; an import asks about each supplier once for the whole file. */
export async function contractFieldErrors(
  data: { startDate?: string; endDate?: string; supplierId?: string | undefined },
  supplierExists: (id: string) => Promise<boolean> = async (id) => (await findSupplier(id)) !== undefined,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  if (data.startDate && data.endDate && data.endDate < data.startDate)
    errors.endDate = CONTRACT_MESSAGES.endBeforeStart;
  if (data.supplierId) {
    if (!(await supplierExists(data.supplierId))) errors.supplierId = ACCOUNT_MESSAGES.supplierNotFound;
  }
  return errors;
}

/**
 * The contract's write schemas are of zod's full build: they load with the first write, so that a cold
 * start that only reads does not read that build.
 */
const contractWrites = () => import('../../shared/schemas/account-contracts.ts');

const fieldErrors = (data: Parameters<typeof contractFieldErrors>[0]) => contractFieldErrors(data);

const list = operation({ params: ['id'], query: contractListQuery }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const { limit, skip } = ctx.query;
  const page = await listItems(contractsRef(ctx.caller.companyId, account._id), { filters: {}, limit, skip });
  return {
    body: { data: page.data.map((c) => contractView(c, account._id)), total: page.total, limit, skip },
  };
});

const get = operation({ params: ['id', 'contractId'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  return {
    body: contractView(
      await loadContract(ctx.caller.companyId, account._id, ctx.params.contractId),
      account._id,
    ),
  };
});

const create = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const { file, ...data } = parseOrThrow((await contractWrites()).contractCreateSchema, ctx.body);
  throwIfAny(await fieldErrors(data));
  const companyId = ctx.caller.companyId;
  const stored = file ? await verifyContractPdf(companyId, account._id, file) : undefined;
  const now = new Date().toISOString();
  const contract: StoredItem = {
    ...data,
    ...(stored ? { file: stored } : {}),
    _id: newId(),
    companyId,
    accountId: account._id,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await saveContract(companyId, account._id, contract);
  await writeActivity(ctx.caller, {
    type: 'create',
    model: 'contracts',
    modelId: contract._id,
    message: `Contract ${data.name} added to ${String(account.name ?? account._id)}`,
  });
  return { status: 201, body: contractView(contract, account._id) };
});

const update = operation({ params: ['id', 'contractId'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const companyId = ctx.caller.companyId;
  const existing = await loadContract(companyId, account._id, ctx.params.contractId);
  const { contractUpdateObject, uploadedFileSchema } = await contractWrites();
  const next = await changeContract(companyId, account._id, existing._id, async (current) => {
    const patched: StoredItem = {
      ...applyPatch(current, contractUpdateObject(), ctx.body ?? {}),
      updatedAt: new Date().toISOString(),
    };
    throwIfAny(
      await fieldErrors({
        startDate: String(patched.startDate),
        endDate: String(patched.endDate),
        // Only a supplier the patch names is looked up: a stored one was checked when it was set.
        supplierId:
          typeof patched.supplierId === 'string' && patched.supplierId !== current.supplierId
            ? patched.supplierId
            : undefined,
      }),
    );
    // The stored file object survives a patch as it was, so a different one is the upload the patch attaches.
    if (patched.file && patched.file !== current.file)
      patched.file = await verifyContractPdf(companyId, account._id, uploadedFileSchema.parse(patched.file));
    return patched;
  });
  await writeActivity(ctx.caller, { type: 'update', model: 'contracts', modelId: existing._id });
  return { body: contractView(next, account._id) };
});

const remove = operation({ params: ['id', 'contractId'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const existing = await loadContract(ctx.caller.companyId, account._id, ctx.params.contractId);
  const now = new Date().toISOString();
  const next = await changeContract(ctx.caller.companyId, account._id, existing._id, (current) => ({
    ...current,
    deleted: true,
    deletedAt: now,
    deletedBy: ctx.caller.sub,
    updatedAt: now,
  }));
  await writeActivity(ctx.caller, { type: 'delete', model: 'contracts', modelId: existing._id });
  return { body: contractView(next, account._id) };
});

/** PATCH .../toggle-status: an active contract becomes inactive and the other way round. */
const toggleStatus = operation({ params: ['id', 'contractId'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const existing = await loadContract(ctx.caller.companyId, account._id, ctx.params.contractId);
  // Toggled from the status as stored when written: two toggles at once leave it where it started.
  const next = await changeContract(ctx.caller.companyId, account._id, existing._id, (current) => ({
    ...current,
    status: current.status === 'active' ? 'inactive' : 'active',
    updatedAt: new Date().toISOString(),
  }));
  return { body: contractView(next, account._id) };
});

/** POST .../rate-types: the contract's rates, replacing the ones it had. */
const rateTypes = operation({ params: ['id', 'contractId'] }, async (ctx): Promise<OpResult> => {
  const account = await routeAccount(ctx.caller, ctx.params.id);
  const existing = await loadContract(ctx.caller.companyId, account._id, ctx.params.contractId);
  const body = parseOrThrow((await contractWrites()).contractRateTypesSchema, ctx.body ?? {});
  const next = await changeContract(ctx.caller.companyId, account._id, existing._id, (current) => ({
    ...current,
    rateTypes: body.rateTypes,
    updatedAt: new Date().toISOString(),
  }));
  return { body: contractView(next, account._id) };
});

export const CONTRACT_OPERATIONS: Operations = {
  'contracts.list': list,
  'contracts.get': get,
  'contracts.create': create,
  'contracts.update': update,
  'contracts.delete': remove,
  'contracts.toggleStatus': toggleStatus,
  'contracts.rateTypes': rateTypes,
};
