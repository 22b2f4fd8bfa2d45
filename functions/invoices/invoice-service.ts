import { isCompanyWide } from '../../shared/access/route-access.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import { invoiceValidationListQuery } from '../../shared/schemas/list-queries.ts';
import { invoiceDownloadQuery } from '../../shared/schemas/queries.ts';
import type { FileLink } from '../../shared/schemas/responses/invoices.ts';
import { findResource } from '../../shared/system/resources.ts';
import { findAccount, findStoredAccount } from '../accounts/index.ts';
import { findStoredAsset } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { getObjectBytes, presignGet, putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { getItem, listItems, type StoredItem } from '../core/data/item-repository.ts';
import { badRequest, formError, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { refuseUnknownMembers } from '../core/resources/resource-refs.ts';
import { listQueryOf, listReadable, loadForRoute } from '../core/resources/resource-service.ts';
import { findStoredEntity } from '../entities/index.ts';
import { confirmInvoice } from './invoice-confirm-later.ts';
import { restoreInvoice, softDeleteInvoice } from './invoice-deletion-later.ts';
import { addRate, applyValues, deleteRate, queueValidation } from './invoice-edit.ts';
import { FILE_NAME_PART_LIMIT, generatedFileName } from './invoice-records.ts';
import {
  changeInvoice,
  changeValidation,
  getInvoice,
  getValidation,
  invoicesRef,
  validationsRef,
} from './invoice-repository.ts';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
/** The bodies of the writes (zod's full build) load with the first write that parses one. */
const inputs = () => import('./invoice-inputs.ts');

function validationResource() {
  const r = findResource('invoice-validation');
  if (!r) throw new Error('The invoice-validation resource is not declared');
  return r;
}

function invoicesResource() {
  const r = findResource('invoices');
  if (!r) throw new Error('The invoices resource is not declared');
  return r;
}

/** An invoice the caller may act on: other companies' and unreadable ones are the same 404. */
export async function invoiceFor(ctx: AnyOpContext, id: string, access: 'read' | 'write' = 'write') {
  return loadForRoute(ctx, invoicesResource(), id, access);
}

async function announce(ctx: OpContext, type: string, ids: readonly string[]) {
  await publishToCompany(
    ctx.caller.companyId,
    { type, keys: ['/invoices', '/invoice-validation', ...ids.map((id) => `/invoices/${id}`)] },
    ctx.log,
  ).catch(() => undefined);
}

const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  const deleted = await softDeleteInvoice(ctx.caller.companyId, invoice);
  await writeActivity(ctx.caller, { type: 'delete', model: 'invoices', modelId: invoice._id });
  await announce(ctx, 'invoice.deleted', [invoice._id]);
  return { body: deleted };
});

const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const item = await getItem(invoicesRef(ctx.caller.companyId).pk, ctx.params.id);
  if (!item) throw notFound();
  const invoice = await invoiceFor(ctx, item._id);
  const restored = await restoreInvoice(ctx.caller.companyId, invoice);
  await writeActivity(ctx.caller, { type: 'restore', model: 'invoices', modelId: invoice._id });
  await announce(ctx, 'invoice.restored', [invoice._id]);
  return { body: restored };
});

/** A download name from the account's site and entity, cut as the company's settings say. */
export async function downloadNameOf(companyId: string, invoice: StoredItem): Promise<string> {
  const accountId = str(invoice.accountId);
  const account = accountId ? await findStoredAccount(companyId, accountId) : undefined;
  const assetId = account?.assetId;
  const asset = assetId ? await findStoredAsset(companyId, assetId) : undefined;
  const entityId = asset?.entityId;
  const entity = entityId ? await findStoredEntity(companyId, entityId) : undefined;
  const company = await getCompany(companyId);
  const settings = company?.settings ?? {};
  const limit =
    typeof settings.invoiceFileNameLimit === 'number' && settings.invoiceFileNameLimit > 0
      ? settings.invoiceFileNameLimit
      : FILE_NAME_PART_LIMIT;
  return generatedFileName(
    invoice,
    { legalName: entity?.legalName ?? str(company?.name), siteName: asset?.siteName },
    limit,
  );
}

/** What a download call asks for: `?preview=true` shows it inline, `?stamped=true` asks for the stamped copy. */
/** The stamped copy is always a PDF, whatever the original was, and is named apart from it. */
const stampedNameOf = (name: string) => `${name.replace(/\.(pdf|png|jpe?g|tiff?)$/i, '')}-stamped.pdf`;

/**
 * A presigned URL of an invoice's document; inline for the preview beside its values. The stamped copy
 * is never swapped for the original: asked for and missing, it is a 404 that says so.
 */
export async function invoiceDownload(
  companyId: string,
  invoice: StoredItem,
  preview: boolean,
  stamped = false,
): Promise<FileLink> {
  const key = stamped ? str(invoice.stampedKey) : str(invoice.key);
  if (!key) {
    throw notFound(
      stamped
        ? `This ${invoice.isCreditNote === true ? 'credit note' : 'invoice'} has not been stamped yet`
        : 'This invoice has no document',
    );
  }
  const bucket = stamped ? bucketName('documents') : bucketName('uploads');
  const original = await downloadNameOf(companyId, invoice);
  const name = stamped ? stampedNameOf(original) : original;
  const url = await presignGet(bucket, key, 900, preview ? undefined : name, name);
  return { url, name };
}

const download = operation(
  { params: ['id'], query: invoiceDownloadQuery },
  async (ctx): Promise<OpResult> => {
    const invoice = await invoiceFor(ctx, ctx.params.id, 'read');
    const { preview, stamped } = ctx.query;
    return { body: await invoiceDownload(ctx.caller.companyId, invoice, preview, stamped) };
  },
);

/** PATCH /invoices/{id}/manual-update: corrected values (and the account), then validation again. */
const manualUpdate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  const body = parseOrThrow((await inputs()).manualUpdateSchema, ctx.body);
  if (invoice.completed === true) throw badRequest('A confirmed invoice cannot be changed');
  if (body.accountId && !(await findAccount(ctx.caller.companyId, body.accountId)))
    throw formError({ accountId: 'Account not found' });
  const updated = await applyValues(
    ctx.caller.companyId,
    invoice,
    body.values,
    ctx.caller.sub,
    body.accountId === undefined ? undefined : { accountId: body.accountId },
  );
  return { body: updated };
});

const addRateOp = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  if (invoice.completed === true) throw badRequest('A confirmed invoice cannot be changed');
  return { status: 201, body: await addRate(ctx.caller.companyId, invoice, ctx.body) };
});

const deleteRateOp = operation({ params: ['id', 'rateId'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  if (invoice.completed === true) throw badRequest('A confirmed invoice cannot be changed');
  return { body: await deleteRate(ctx.caller.companyId, invoice, ctx.params.rateId) };
});

const confirm = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  if (invoice.deleted === true) throw badRequest('A deleted invoice cannot be confirmed');
  const confirmed = await confirmInvoice(ctx.caller.companyId, invoice, ctx.caller.sub);
  await writeActivity(ctx.caller, { type: 'update', model: 'invoices', modelId: invoice._id });
  await announce(ctx, 'invoice.confirmed', [invoice._id]);
  return { body: confirmed };
});

/**
 * POST /invoices/{id}/stamp: a copy of the document with a received stamp (date, who, invoice number) on
 * its first page, kept beside the original, which is never altered.
 */
export async function stampInvoice(companyId: string, invoice: StoredItem, who: string): Promise<StoredItem> {
  const key = str(invoice.key);
  if (!key) throw notFound('This invoice has no document');
  const bytes = await getObjectBytes(bucketName('uploads'), key).catch((err: { name?: string }) => {
    // The document of an upload that never arrived.
    if (err.name === 'NoSuchKey' || err.name === 'NotFound') throw notFound('This invoice has no document');
    throw err;
  });
  const [{ stampPdf }, { ImageTooLargeError }] = await Promise.all([
    import('../core/lib/pdf-stamp.ts'),
    import('../core/lib/image-size.ts'),
  ]);
  const now = new Date();
  const label = `${invoice.isCreditNote === true ? 'CREDIT NOTE' : 'RECEIVED'} ${now.toISOString().slice(0, 10)}`;
  // A corrupt or encrypted PDF, or a TIFF, cannot be drawn on: the person is told, nothing is stored.
  const stamped = await stampPdf(bytes, [label, str(invoice.invoiceNumber) ?? '', who].filter(Boolean)).catch(
    (err: unknown) => {
      if (err instanceof ImageTooLargeError)
        throw badRequest(`This document cannot be stamped: ${err.message}`);
      throw badRequest('This document cannot be stamped: it is not a readable PDF, PNG or JPEG');
    },
  );
  const stampedKey = `stamped/${companyId}/${invoice._id}.pdf`;
  await putObject(bucketName('documents'), stampedKey, stamped, 'application/pdf');
  const changed = await changeInvoice(companyId, invoice._id, (current) => ({
    ...current,
    stampedKey,
    stampedAt: now.toISOString(),
    stampedBy: who,
    updatedAt: now.toISOString(),
  }));
  if (!changed) throw notFound();
  return changed.after;
}

const stamp = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  const updated = await stampInvoice(ctx.caller.companyId, invoice, ctx.caller.email ?? ctx.caller.sub);
  const download = await invoiceDownload(ctx.caller.companyId, updated, false, true);
  return { body: { ...updated, downloadUrl: download.url } };
});

/** POST /invoices/{id}/update-validation: what a person records on the validation (tags, hold, owner, note). */
const updateValidation = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  const body = parseOrThrow((await inputs()).updateValidationSchema, ctx.body);
  await refuseUnknownMembers(ctx.caller.companyId, { assignedUserId: body.assignedUserId });
  // Applied to the validation as stored when written, so a comment or hold set at the same moment stays.
  const changed = await changeValidation(ctx.caller.companyId, invoice._id, (validation) => {
    const updated: StoredItem = { ...validation, updatedAt: new Date().toISOString() };
    if (body.tags) updated.tags = [...new Set(body.tags)];
    if (body.hold !== undefined) updated.hold = body.hold;
    if (body.assignedUserId !== undefined) {
      if (body.assignedUserId) updated.assignedUserId = body.assignedUserId;
      else delete updated.assignedUserId;
    }
    if (body.comment) {
      const comments = Array.isArray(validation.comments) ? validation.comments : [];
      updated.comments = [...comments, { text: body.comment, by: ctx.caller.sub, at: updated.updatedAt }];
    }
    return updated;
  });
  if (!changed) throw notFound('This invoice has not been validated yet');
  await announce(ctx, 'invoice.validation', [invoice._id]);
  return { body: changed.after };
});

/** GET /invoices/{id}/refresh: the invoice as it is now, with its validation. */
const refresh = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id, 'read');
  const validation = await getValidation(ctx.caller.companyId, invoice._id);
  return { body: { ...invoice, validation: validation ?? null } };
});

/** GET /invoices/{id}/validate: validates at once and answers the result. */
const validate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  const { validateStoredInvoice } = await import('./validation-service.ts');
  const result = await validateStoredInvoice(ctx.caller.companyId, invoice._id, ctx.log);
  return { body: result ?? (await getValidation(ctx.caller.companyId, invoice._id)) };
});

/** POST /invoices/convert-values: a bill's consumption in another unit (kWh to MWh, m³ to kWh of gas, ...). */
const convertValues = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).convertSchema, ctx.body);
  const converted = convertQuantity(body.values.consumption, body.values.consumptionUnit, body.toUnit);
  if (converted === undefined) {
    throw formError({ toUnit: `${body.values.consumptionUnit} cannot be converted to ${body.toUnit}` });
  }
  return { body: { values: { ...body.values, consumption: converted, consumptionUnit: body.toUnit } } };
});

/**
 * GET /invoices/validation: invoices for the validation pages, newest first, 100 to a page; a caller with
 * grants pages through the bills of the meters they may read only, as every other list of bills does.
 */
const validationList = operation({ query: invoiceValidationListQuery }, async (ctx): Promise<OpResult> => {
  const q = listQueryOf(invoicesResource(), { limit: '100', ...ctx.query.text, $sort: '-createdAt' });
  const { data, total } = await listReadable(invoicesResource(), ctx.caller, { ...q, descending: true });
  return { body: { data, total, limit: q.limit, skip: q.skip } };
});

const STATUSES = ['pending', 'passed', 'warning', 'failed', 'error'] as const;

/** GET /invoices/validation-stats: how many invoices are in each validation state, open and completed. */
const validationStats = operation({}, async (ctx): Promise<OpResult> => {
  const counts: Record<string, { open: number; completed: number }> = {};
  if (isCompanyWide(ctx.caller)) {
    const ref = validationsRef(ctx.caller.companyId);
    for (const status of STATUSES) {
      const open = await listItems(ref, { filters: { status, completed: false }, limit: 0, skip: 0 });
      const done = await listItems(ref, { filters: { status, completed: true }, limit: 0, skip: 0 });
      counts[status] = { open: open.total, completed: done.total };
    }
  } else {
    // A caller with grants counts the validations they may read, judged once each.
    const { data } = await listReadable(validationResource(), ctx.caller, {
      filters: { status: [...STATUSES] },
      limit: MAX_LIST_LIMIT,
      skip: 0,
    });
    for (const status of STATUSES) counts[status] = { open: 0, completed: 0 };
    for (const v of data) {
      const c = counts[String(v.status)];
      if (c && v.completed === true) c.completed++;
      else if (c && v.completed === false) c.open++;
    }
  }
  const open = Object.values(counts).reduce((s, c) => s + c.open, 0);
  const completed = Object.values(counts).reduce((s, c) => s + c.completed, 0);
  return { body: { statuses: counts, open, completed, total: open + completed } };
});

/** POST /invoices/bulk-delete: `noScrapeIds` are also kept from being fetched again from the supplier. */
const bulkDelete = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow((await inputs()).bulkDeleteSchema, ctx.body);
  const noScrape = new Set(body.noScrapeIds);
  let deleted = 0;
  const missing: string[] = [];
  for (const id of new Set(body.ids)) {
    const invoice = await getInvoice(ctx.caller.companyId, id);
    if (!invoice) {
      missing.push(id);
      continue;
    }
    const mine = await invoiceFor(ctx, id).catch(() => undefined);
    if (!mine) {
      missing.push(id);
      continue;
    }
    await softDeleteInvoice(ctx.caller.companyId, mine, noScrape.has(id) ? { noScrape: true } : {});
    deleted++;
  }
  await announce(ctx, 'invoice.deleted', []);
  return { body: { deleted, missing } };
});

export const INVOICE_OPERATIONS: Operations = {
  'invoices.delete': remove,
  'invoices.restore': restore,
  'invoices.download': download,
  'invoices.manualUpdate': manualUpdate,
  'invoices.addRate': addRateOp,
  'invoices.deleteRate': deleteRateOp,
  'invoices.confirm': confirm,
  'invoices.stamp': stamp,
  'invoices.updateValidation': updateValidation,
  'invoices.refresh': refresh,
  'invoices.validate': validate,
  'invoices.convertValues': convertValues,
  'invoices.validationList': validationList,
  'invoices.validationStats': validationStats,
  'invoices.bulkDelete': bulkDelete,
};

export { queueValidation };
