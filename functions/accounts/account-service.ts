import type * as z from 'zod';
import type { Caller } from '../../shared/access/caller.ts';
import { canSearch, isCompanyWide } from '../../shared/access/route-access.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import type { accountWizardSchema } from '../../shared/schemas/account-inputs.ts';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_UNITS,
  meterPointKind,
  meterPointNumberError,
  normaliseMeterPointNumber,
  UTILITY_LABELS,
  WASTE_CATEGORIES,
} from '../../shared/schemas/account-rules.ts';
import { accountListQuery } from '../../shared/schemas/list-queries.ts';
import { accountGetQuery } from '../../shared/schemas/request-queries.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { listItems, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { forbidden } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operations,
  type OpResult,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { answeredItem, answeredPage } from '../core/resources/generic-answers.ts';
import { collectionOf, genericOperation } from '../core/resources/resource-service.ts';
import { indexForSearch } from '../core/search-index/search-index-service.ts';
import { processingInvoicesOf } from './account-billing-service.ts';
import {
  accountLinkErrors,
  accountsResource,
  accountViews,
  assetsResource,
  getAccount,
  getAsset,
  meterUserErrors,
  throwIfAny,
} from './account-links.ts';
import { allAccounts } from './account-repository.ts';
import { movingMeterUser } from './account-rollups.ts';

const generic = genericOperation;

/**
 * The account's write schemas are of zod's full build: they load with the first write that parses with
 * them, so that a cold start that only reads accounts does not read that build.
 */
const accountWrites = () => import('../../shared/schemas/account.ts');
const wizardInputs = () => import('../../shared/schemas/account-inputs.ts');

/** Runs a generic list-shaped operation and shows its accounts with asset and sub-meter flag. */
async function viewList(
  ctx: OpContext<OpContext['params'], AccountListQuery>,
  op: string,
): Promise<OpResult> {
  const { $populate: _populate, ...query } = ctx.query.text;
  // Staff may list another company's accounts by naming it; everyone else lists their own.
  const named = ctx.query.companyId;
  const companyId = ctx.caller.isAdmin && named ? named : ctx.caller.companyId;
  const caller: Caller = { ...ctx.caller, companyId };
  const result = await generic(op)({ ...ctx, caller, query });
  const body = answeredPage(result);
  return { ...result, body: { ...body, data: await accountViews(companyId, body.data) } };
}

type AccountListQuery = z.output<typeof accountListQuery>;

const list = operation({ query: accountListQuery }, (ctx) => viewList(ctx, 'generic.list'));

const search = operation({ query: accountListQuery }, (ctx) => {
  if (!canSearch(ctx.caller)) throw forbidden();
  return viewList(ctx, 'generic.search');
});

/** One account with its asset, its parent's name and, on request ($select), its processing invoices. */
const get = operation({ params: ['id'], query: accountGetQuery }, async (ctx): Promise<OpResult> => {
  const result = await generic('generic.get')({ ...ctx, query: {} });
  const account = answeredItem(result);
  const [view] = await accountViews(ctx.caller.companyId, [account]);
  const parentId = typeof account.parentAccountId === 'string' ? account.parentAccountId : undefined;
  const parent = parentId ? await getAccount(ctx.caller.companyId, parentId) : undefined;
  const full: Record<string, unknown> = {
    ...view,
    parentAccount: parent ? { _id: parent._id, name: parent.name } : null,
  };
  const select = (ctx.query.$select ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (select.length === 0) return { body: full };
  if (select.includes('processingInvoices'))
    full.processingInvoices = await processingInvoicesOf(ctx.caller, account._id);
  return {
    body: Object.fromEntries(Object.entries(full).filter(([k]) => k === '_id' || select.includes(k))),
  };
});

/** The generic create, with the account's links checked first. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow((await accountWrites()).accountSchema, ctx.body);
  throwIfAny({
    ...(await accountLinkErrors(ctx.caller, data)),
    ...(await meterUserErrors(ctx.caller.companyId, data)),
  });
  return generic('generic.create')(ctx);
});

const LINK_FIELDS = ['assetId', 'parentAccountId', 'type', 'supplierId', 'meterPointNumber'];
/** Fields that say who uses the meter: the roll-ups split its figures by them. */
const USER_FIELDS = ['meterUser', 'meterUserTenantId'];

/** The generic update, with the account's links checked when the change touches them. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const id = ctx.params.id;
  const body = bodyObjectOf(ctx);
  const existing = await getAccount(ctx.caller.companyId, id);
  const readable =
    existing &&
    (await mayAccessItem(
      accountsResource(),
      ctx.caller,
      existing,
      'read',
      new LineageResolver(ctx.caller.companyId, ctx.caller),
    ));
  // Unknown and unreadable accounts are left to the generic update, which answers 404 for both.
  const links = LINK_FIELDS.some((f) => f in body);
  const user = USER_FIELDS.some((f) => f in body);
  if (readable && (links || user)) {
    const patch = parseOrThrow((await accountWrites()).accountObject().partial(), body);
    const merged = { ...existing, ...Object.fromEntries(Object.entries(patch).filter(([k]) => k in body)) };
    const errors = await meterUserErrors(ctx.caller.companyId, {
      assetId: String(merged.assetId),
      meterUser: merged.meterUser,
      meterUserTenantId: merged.meterUserTenantId,
    });
    if (links)
      Object.assign(
        errors,
        await accountLinkErrors(
          ctx.caller,
          {
            assetId: String(merged.assetId),
            type: String(merged.type),
            parentAccountId: 'parentAccountId' in body ? patch.parentAccountId : undefined,
            supplierId: 'supplierId' in body ? patch.supplierId : undefined,
            meterPointNumber: 'meterPointNumber' in body ? patch.meterPointNumber : undefined,
          },
          id,
        ),
      );
    if (merged.assetId !== existing.assetId && !errors.assetId) {
      const subMeters = await listItems(collectionOf(accountsResource(), ctx.caller), {
        filters: { parentAccountId: id },
        limit: 1,
        skip: 0,
      });
      if (subMeters.data.length > 0) errors.assetId = ACCOUNT_MESSAGES.moveSubMetersFirst;
    }
    throwIfAny(errors);
  }
  // The roll-ups split the meter's figures by its user: its site's are rebuilt from its months, which
  // moves them between the parts; a request that dies before the rebuild leaves the move named, and the
  // next split by meter user finishes it.
  if (readable && user && typeof existing.assetId === 'string')
    return movingMeterUser(ctx.caller.companyId, { _id: id, assetId: existing.assetId }, () =>
      generic('generic.update')(ctx),
    );
  return generic('generic.update')(ctx);
});

/**
 * The account the wizard's input describes, or its field errors: the meter number, unit and links
 * checked, the asset one the caller may read. Also the rule of each row of an import of meters.
 */
export async function wizardAccountOf(
  caller: Caller,
  input: z.output<typeof accountWizardSchema>,
  resolver: LineageResolver,
  /** Accounts an import updates: their own meter point numbers are not duplicates. */
  replacing?: ReadonlySet<string>,
): Promise<{ errors: Record<string, string>; data?: Record<string, unknown> }> {
  const errors: Record<string, string> = {};
  const parentAccountId = input.parentAccountId ?? undefined;
  const number = input.meterPointNumber
    ? normaliseMeterPointNumber(input.type, input.meterPointNumber)
    : undefined;
  const numberError = meterPointNumberError(input.type, number);
  if (numberError) errors.meterPointNumber = numberError;
  // A sub-meter is a private meter below a supply: it has no national meter point number of its own.
  else if (!number && meterPointKind(input.type) && !parentAccountId)
    errors.meterPointNumber = ACCOUNT_MESSAGES.meterPointRequired;
  const units = ACCOUNT_UNITS[input.type];
  if (input.unit && !units.includes(input.unit)) errors.unit = `Must be one of ${units.join(', ')}`;

  const asset = await getAsset(caller.companyId, input.assetId);
  const assetReadable =
    asset &&
    (isCompanyWide(caller) || (await mayAccessItem(assetsResource(), caller, asset, 'read', resolver)));
  if (!assetReadable) errors.assetId = ACCOUNT_MESSAGES.assetNotFound;
  else
    Object.assign(
      errors,
      await accountLinkErrors(
        caller,
        {
          assetId: input.assetId,
          type: input.type,
          parentAccountId,
          supplierId: input.supplierId,
          meterPointNumber: numberError ? undefined : number,
        },
        replacing,
      ),
    );
  if (Object.keys(errors).length > 0) return { errors };
  const data = (await accountWrites()).accountSchema.parse({
    ...input,
    name: input.name || `${String(asset?.siteName ?? '')} ${UTILITY_LABELS[input.type]}`.trim(),
    meterPointNumber: number,
    parentAccountId,
    unit: input.unit ?? defaultUnit(input.type),
    entityId: typeof asset?.entityId === 'string' ? asset.entityId : undefined,
  });
  return { errors, data };
}

/** POST /accounts/from-wizard: a new account in an asset, with its meter number, unit and links checked. */
const fromWizard = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow((await wizardInputs()).accountWizardSchema, ctx.body);
  const caller = ctx.caller;
  const resource = accountsResource();
  const resolver = new LineageResolver(caller.companyId, caller);
  const { errors, data } = await wizardAccountOf(caller, input, resolver);
  throwIfAny(errors);
  const now = new Date().toISOString();
  const item: StoredItem = {
    ...data,
    _id: newId(),
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
  if (!(await mayAccessItem(resource, caller, item, 'write', resolver))) throw forbidden();
  await putItem(collectionOf(resource, caller), item, { mustNotExist: true });
  await indexForSearch(caller.companyId, 'accounts', item);
  await writeActivity(caller, { type: 'create', model: 'accounts', modelId: item._id });
  const [view] = await accountViews(caller.companyId, [item]);
  return { status: 201, body: view };
});

/** Every tag used on the accounts the caller may read, for the tag picker. */
const tags = operation({}, async (ctx): Promise<OpResult> => {
  const all = await allAccounts(ctx.caller.companyId);
  const resource = accountsResource();
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  const found = new Set<string>();
  for (const account of all) {
    if (account.deleted === true || !Array.isArray(account.tags) || account.tags.length === 0) continue;
    if (!(await mayAccessItem(resource, ctx.caller, account, 'read', resolver))) continue;
    for (const tag of account.tags) if (typeof tag === 'string') found.add(tag);
  }
  const data = [...found].sort((a, b) => a.localeCompare(b));
  return { body: { data, total: data.length } };
});

const wasteCategories = operation(
  {},
  async (): Promise<OpResult> => ({
    body: { data: [...WASTE_CATEGORIES], total: WASTE_CATEGORIES.length },
  }),
);

export const ACCOUNT_OPERATIONS: Operations = {
  'accounts.list': list,
  'accounts.search': search,
  'accounts.get': get,
  'accounts.create': create,
  'accounts.update': update,
  'accounts.fromWizard': fromWizard,
  'accounts.tags': tags,
  'accounts.wasteCategories': wasteCategories,
};
