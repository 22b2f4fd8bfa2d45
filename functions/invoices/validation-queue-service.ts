import type * as z from 'zod';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import {
  listSearchQuery,
  plainListQuery,
  type QueueGroup,
  validationQueueQuery,
} from '../../shared/schemas/list-queries.ts';
import type { BulkAnswer } from '../../shared/schemas/responses/invoices.ts';
import { findResource } from '../../shared/system/resources.ts';
import { accountsResource, findStoredAccount } from '../accounts/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { type ListQuery, type ListResult, listItems, type StoredItem } from '../core/data/item-repository.ts';
import { ApiError, badRequest, forbidden, notFound, readOnly } from '../core/lib/errors.ts';
import { parseOrThrow, refuseOtherFields } from '../core/lib/validation.ts';
import type {
  AnyOpContext,
  OpContext,
  Operations,
  OpResult,
  WithParams,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { refuseUnknownMembers } from '../core/resources/resource-refs.ts';
import { listQueryOf, listReadable } from '../core/resources/resource-service.ts';
import { readableCaptures } from './capture-access.ts';
import { confirmInvoice } from './invoice-confirm-later.ts';
import { restoreInvoice, softDeleteInvoice } from './invoice-deletion-later.ts';
import {
  capturesRef,
  changeValidation,
  getInvoice,
  getValidation,
  type StoredValidation,
  toValidation,
} from './invoice-repository.ts';

/** The bodies of the writes (zod's full build) load with the first write that parses one. */
const inputs = () => import('./invoice-inputs.ts');
const DEFAULT_PAGE = '100';

function validationResource() {
  const r = findResource('invoice-validation');
  if (!r) throw new Error('The invoice-validation resource is not declared');
  return r;
}

/**
 * Validations follow their invoice's account (02 §6): a caller with grants pages through readable ones only.
 * Each is read through the repository's record, so the queue answers what the bill pages read.
 */
async function readableValidations(
  ctx: AnyOpContext,
  q: ListQuery,
): Promise<{ data: StoredValidation[]; total: number }> {
  const { data, total } = await listReadable(validationResource(), ctx.caller, q);
  return { data: data.map(toValidation), total };
}

/**
 * A page of the documents the caller may read: company-wide callers page in the query; others have every
 * match judged by its bills first (all at once, see `readableCaptures`), so the page and its total hold
 * readable documents only.
 */
async function readableCapturePage(ctx: AnyOpContext, q: ListQuery): Promise<ListResult> {
  const ref = capturesRef(ctx.caller.companyId);
  if (isCompanyWide(ctx.caller)) return listItems(ref, q);
  const all = await listItems(ref, { ...q, skip: 0, limit: MAX_LIST_LIMIT });
  const kept = await readableCaptures(ctx.caller, all.data);
  return { data: kept.slice(q.skip, q.skip + q.limit), total: kept.length };
}

/** The queue groups of the validation pages (02 §4): each but completed holds open items only. */
const GROUPS: Record<QueueGroup, { status?: string[]; completed: boolean }> = {
  passed: { status: ['passed', 'warning'], completed: false },
  failed: { status: ['failed', 'error'], completed: false },
  pending: { status: ['pending'], completed: false },
  completed: { completed: true },
  open: { completed: false },
};

function queueQuery(query: z.output<typeof validationQueueQuery>): ListQuery {
  const { group: _group, ...rest } = query.text;
  const g = GROUPS[query.group ?? 'open'];
  const q = listQueryOf(validationResource(), { limit: DEFAULT_PAGE, ...rest });
  const filters: ListQuery['filters'] = { ...q.filters, completed: g.completed };
  if (g.status && filters.status === undefined) filters.status = g.status;
  if (typeof filters.tags === 'string') {
    // Tags are a list on the item; a filter names one of them.
    const tag = filters.tags;
    delete filters.tags;
    return { ...q, filters, text: tag.toLowerCase(), descending: true };
  }
  return { ...q, filters, descending: true };
}

const selectFields = (data: StoredItem[], select: string | undefined) => {
  if (!select) return data;
  const fields = select
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return data.map((d): StoredItem => ({ _id: d._id, ...Object.fromEntries(fields.map((f) => [f, d[f]])) }));
};

/** GET /invoice-validation/queue?group=passed|failed|completed: newest first, 100 to a page. */
const queue = operation({ query: validationQueueQuery }, async (ctx): Promise<OpResult> => {
  const q = queueQuery(ctx.query);
  const { data, total } = await readableValidations(ctx, q);
  return { body: { data: selectFields(data, ctx.query.$select), total, limit: q.limit, skip: q.skip } };
});

/** GET /invoice-validation/search?query=: by invoice number, file name or tag. */
const search = operation({ query: listSearchQuery }, async (ctx): Promise<OpResult> => {
  const text = ctx.query.query;
  if (text.length === 0) throw badRequest('query is required');
  const { query: _q, ...rest } = ctx.query.text;
  const q = listQueryOf(validationResource(), { limit: DEFAULT_PAGE, ...rest });
  const { data, total } = await readableValidations(ctx, {
    ...q,
    text: text.toLowerCase(),
    descending: true,
  });
  return { body: { data, total, limit: q.limit, skip: q.skip } };
});

/** GET /invoice-validation/invoices: the uploaded documents (captures), newest first. */
const captures = operation({ query: plainListQuery }, async (ctx): Promise<OpResult> => {
  const q = listQueryOf(validationResource(), { limit: DEFAULT_PAGE, ...ctx.query.text });
  const { data, total } = await readableCapturePage(ctx, { ...q, descending: true });
  // The capture's results can be large; the list needs its state, the invoice page reads the rest.
  const rows = data.map(({ results: _r, ...c }) => c);
  return { body: { data: rows, total, limit: q.limit, skip: q.skip } };
});

async function validationFor(ctx: WithParams<'id'>, id = ctx.params.id): Promise<StoredValidation> {
  const validation = await getValidation(ctx.caller.companyId, id);
  if (!validation || validation.deleted === true) throw notFound('Invoice validation not found');
  return validation;
}

/** GET /invoice-validation/{id}/summary: the invoice, its validation and its account in one answer. */
const summary = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  const invoice = await getInvoice(ctx.caller.companyId, String(validation.invoiceId ?? validation._id));
  const accountId = typeof invoice?.accountId === 'string' ? invoice.accountId : undefined;
  const found = accountId ? await findStoredAccount(ctx.caller.companyId, accountId) : undefined;
  // The invoice names the account shown; it is shown only to a caller who may read it.
  const account =
    found && (await mayAccessItem(accountsResource(), ctx.caller, found, 'read')) ? found : null;
  return { body: { validation, invoice: invoice ?? null, account } };
});

const csvCell = (v: unknown) => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** GET /invoice-validation/{id}/export: the invoice's values and each check's result, as CSV. */
const exportOne = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  const invoice = await getInvoice(ctx.caller.companyId, String(validation.invoiceId ?? validation._id));
  const rows: unknown[][] = [['section', 'name', 'status', 'value or reason']];
  for (const [k, v] of Object.entries(invoice?.values ?? {})) rows.push(['value', k, '', v]);
  const results = Array.isArray(validation.results) ? validation.results : [];
  for (const r of results) rows.push(['check', r.name ?? r.key, r.status, r.reason]);
  rows.push(['result', 'validation', validation.status, validation.reason ?? '']);
  const csv = `${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
  const name = `validation-${String(invoice?.invoiceNumber ?? validation._id).replace(/[^\w.-]+/g, '-')}.csv`;
  return { body: { fileName: name, contentType: 'text/csv', csv } };
});

const revalidate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  // The checks are loaded by the call that runs them: most of this function's calls only read the queue.
  const { validateStoredInvoice } = await import('./validation-service.ts');
  const result = await validateStoredInvoice(
    ctx.caller.companyId,
    String(validation.invoiceId ?? validation._id),
    ctx.log,
  );
  if (!result) throw badRequest('The invoice has not been captured yet, so it cannot be validated');
  return { body: result };
});

/** A person accepts the bill despite its checks; the results and the status it had stay visible. */
function forced(validation: StoredItem, userSub: string): StoredItem {
  const now = new Date().toISOString();
  return {
    ...validation,
    status: 'passed',
    forced: true,
    forcedFrom: validation.forced === true ? validation.forcedFrom : validation.status,
    forcedBy: userSub,
    forcedAt: now,
    updatedAt: now,
  };
}

/** PUT /invoice-validation/{id}/force: a person accepts the bill despite its checks. */
const force = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  const changed = await changeOne(ctx, validation._id, (v) => forced(v, ctx.caller.sub));
  await announce(ctx);
  return { body: changed };
});

/**
 * Changes a validation as stored at the moment of writing (retried if anything wrote in between), so two
 * people tagging or holding the same bill at once both keep what they did.
 */
async function changeOne(
  ctx: OpContext,
  id: string,
  change: (v: StoredItem) => StoredItem,
): Promise<StoredItem> {
  const changed = await changeValidation(ctx.caller.companyId, id, (current) => {
    if (current.deleted === true) throw notFound('Invoice validation not found');
    return change(current);
  });
  if (!changed) throw notFound('Invoice validation not found');
  return changed.after;
}

async function announce(ctx: Pick<OpContext, 'caller' | 'log'>) {
  await publishToCompany(
    ctx.caller.companyId,
    { type: 'invoice.validation', keys: ['/invoice-validation', '/invoices'] },
    ctx.log,
  ).catch(() => undefined);
}

/**
 * Applies a change to each named validation; ids that are not the company's, or whose account the caller
 * may not read, are reported as missing (never revealed, never touched), not fatal.
 */
async function eachValidation(
  ctx: OpContext,
  ids: readonly string[],
  change: (v: StoredItem) => Promise<void>,
): Promise<OpResult> {
  let updated = 0;
  const missing: string[] = [];
  const failed: { id: string; message: string; formMessages?: Record<string, string> }[] = [];
  const resource = validationResource();
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  for (const id of new Set(ids)) {
    const validation = await getValidation(ctx.caller.companyId, id);
    if (
      !validation ||
      validation.deleted === true ||
      !(await mayAccessItem(resource, ctx.caller, validation, 'read', resolver))
    ) {
      missing.push(id);
      continue;
    }
    try {
      if (!(await mayAccessItem(resource, ctx.caller, validation, 'write', resolver))) throw forbidden();
      await change(validation);
      updated++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      failed.push({
        id,
        message: err.message,
        ...(err.formMessages ? { formMessages: err.formMessages } : {}),
      });
    }
  }
  await announce(ctx);
  return { body: { updated, missing, failed } satisfies BulkAnswer };
}

const bulkHold = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).bulkHoldSchema, ctx.body);
  return eachValidation(ctx, body.ids, async (v) => {
    await changeOne(ctx, v._id, (current) => ({
      ...current,
      hold: body.hold,
      updatedAt: new Date().toISOString(),
    }));
  });
});

const bulkTag = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).bulkTagSchema, ctx.body);
  return eachValidation(ctx, body.ids, async (v) => {
    await changeOne(ctx, v._id, (current) => {
      const had = Array.isArray(current.tags) ? current.tags.map(String) : [];
      return { ...current, tags: [...new Set([...had, ...body.tags])], updatedAt: new Date().toISOString() };
    });
  });
});

const assignUsers = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).assignUsersSchema, ctx.body);
  await refuseUnknownMembers(ctx.caller.companyId, { userSub: body.userSub });
  return eachValidation(ctx, body.ids, async (v) => {
    await changeOne(ctx, v._id, (current) => {
      const next: StoredItem = { ...current, updatedAt: new Date().toISOString() };
      if (body.userSub) next.assignedUserId = body.userSub;
      else delete next.assignedUserId;
      return next;
    });
  });
});

const bulkRevalidate = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).idsSchema, ctx.body);
  const queued: string[] = [];
  const result = await eachValidation(ctx, body.ids, async (v) => {
    const now = new Date().toISOString();
    await changeOne(ctx, v._id, (current) => ({ ...current, status: 'pending', updatedAt: now }));
    queued.push(String(v.invoiceId ?? v._id));
  });
  await sendToQueue(
    'validation',
    queued.map((invoiceId) => ({ companyId: ctx.caller.companyId, invoiceId })),
  );
  return result;
});

/** POST /invoice-validation/bulk-complete: confirms each invoice; one that cannot be says why. */
const bulkComplete = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).idsSchema, ctx.body);
  return eachValidation(ctx, body.ids, async (v) => {
    const invoice = await getInvoice(ctx.caller.companyId, String(v.invoiceId ?? v._id));
    if (!invoice || invoice.deleted === true) throw notFound('Invoice not found');
    await confirmInvoice(ctx.caller.companyId, invoice, ctx.caller.sub);
  });
});

/** POST /invoice-validation/bulk-force: forces each invoice, as the single force does. */
const bulkForce = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).idsSchema, ctx.body);
  return eachValidation(ctx, body.ids, async (v) => {
    await changeOne(ctx, v._id, (current) => forced(current, ctx.caller.sub));
  });
});

const bulkDelete = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).idsSchema, ctx.body);
  return eachValidation(ctx, body.ids, async (v) => {
    const invoice = await getInvoice(ctx.caller.companyId, String(v.invoiceId ?? v._id));
    if (invoice) await softDeleteInvoice(ctx.caller.companyId, invoice);
  });
});

/** POST /invoice-validation and its bulk form: a validation is made by capture, upload or import only. */
const create = operation({}, async (): Promise<OpResult> => {
  throw readOnly(
    'An invoice validation is made when its invoice is uploaded or imported, not created directly',
  );
});

const VALIDATION_EDIT_FIELDS = ['tags', 'hold', 'assignedUserId'];

const VALIDATION_ELSEWHERE: Record<string, string> = {
  status: 'The result comes from the checks; re-validate or force the invoice instead',
  completed: 'Confirm the invoice to complete it',
  deleted: 'Delete or restore the invoice instead',
};

/** PATCH /invoice-validation/{id}: tags, hold and the assigned user, as the bulk actions set them. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  refuseOtherFields(
    ctx.body,
    VALIDATION_EDIT_FIELDS,
    VALIDATION_ELSEWHERE,
    'Only the tags, the hold and the assigned user of a validation can be changed here',
  );
  const edit = parseOrThrow((await inputs()).validationEditSchema, ctx.body);
  await refuseUnknownMembers(ctx.caller.companyId, { assignedUserId: edit.assignedUserId });
  const next = await changeOne(ctx, validation._id, (current) => {
    const out: StoredItem = { ...current, updatedAt: new Date().toISOString() };
    if (edit.tags) out.tags = [...new Set(edit.tags)];
    if (edit.hold !== undefined) out.hold = edit.hold;
    if (edit.assignedUserId) out.assignedUserId = edit.assignedUserId;
    else if (edit.assignedUserId === null) delete out.assignedUserId;
    return out;
  });
  await announce(ctx);
  return { body: next };
});

/** DELETE /invoice-validation/{id}: deletes the invoice, so it leaves the queues and the account's data together. */
const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await validationFor(ctx);
  const invoiceId = String(validation.invoiceId ?? validation._id);
  const invoice = await getInvoice(ctx.caller.companyId, invoiceId);
  if (invoice) await softDeleteInvoice(ctx.caller.companyId, invoice);
  else {
    const now = new Date().toISOString();
    await changeValidation(ctx.caller.companyId, validation._id, (current) => ({
      ...current,
      deleted: true,
      deletedAt: now,
      updatedAt: now,
    }));
  }
  await writeActivity(ctx.caller, { type: 'delete', model: 'invoices', modelId: invoiceId });
  await announce(ctx);
  return { body: await getValidation(ctx.caller.companyId, validation._id) };
});

/** PUT /invoice-validation/{id}: restores the invoice, and with it what its deletion withdrew. */
const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const validation = await getValidation(ctx.caller.companyId, ctx.params.id);
  if (!validation) throw notFound('Invoice validation not found');
  const invoiceId = String(validation.invoiceId ?? validation._id);
  const invoice = await getInvoice(ctx.caller.companyId, invoiceId);
  if (!invoice) throw notFound('Invoice not found');
  if (invoice.deleted === true) {
    await restoreInvoice(ctx.caller.companyId, invoice);
    await writeActivity(ctx.caller, { type: 'restore', model: 'invoices', modelId: invoiceId });
    await announce(ctx);
  }
  return { body: await getValidation(ctx.caller.companyId, validation._id) };
});

export const VALIDATION_QUEUE_OPERATIONS: Operations = {
  'validation.queue': queue,
  'validation.search': search,
  'validation.invoices': captures,
  'validation.summary': summary,
  'validation.export': exportOne,
  'validation.revalidate': revalidate,
  'validation.force': force,
  'validation.assignUsers': assignUsers,
  'validation.bulkHold': bulkHold,
  'validation.bulkTag': bulkTag,
  'validation.bulkRevalidate': bulkRevalidate,
  'validation.bulkComplete': bulkComplete,
  'validation.bulkDelete': bulkDelete,
  'validation.bulkForce': bulkForce,
  'validation.create': create,
  'validation.update': update,
  'validation.delete': remove,
  'validation.restore': restore,
};
