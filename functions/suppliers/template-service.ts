import * as z from 'zod';
import {
  INVOICE_KEYS,
  type Template,
  type TemplateBound,
  type TemplatePages,
  type TemplateRate,
  type TemplateValue,
  type TemplateVersion,
} from '../../shared/capture/model.ts';
import { UTILITY_TYPE_OPTIONS } from '../../shared/data/utility-types.ts';
import {
  boundUsers,
  KEY_TYPES,
  keyName,
  LIST_FIELDS,
  type pagesInputSchema,
  rateInputSchema,
  readinessProblems,
  referenceProblems,
  TEMPLATE_LISTS,
  type TemplateListName,
  templatePatchSchema,
  templateSchema,
  valueInputSchema,
  versionUsers,
} from '../../shared/schemas/templates.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { conflict, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operation,
  type Operations,
  type OpResult,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { findSupplier, type StoredSupplier } from './supplier-repository.ts';
import {
  changeTemplate,
  claimSlot,
  getTemplateItem,
  insertTemplate,
  releaseSlot,
  slotHolder,
  templatesOfSupplier,
} from './template-repository.ts';
import { verifySample } from './template-sample-service.ts';
import { loadTemplate, refuseUnknown, type StoredTemplate, saveTemplate } from './template-store.ts';

type Problems = Record<string, string>;

const utilityName = (type: string) =>
  UTILITY_TYPE_OPTIONS.data.find((o) => o.value === type)?.name.toLowerCase() ?? type;

const withId = <T extends { _id?: string }>(item: T): T & { _id: string } => ({
  ...item,
  _id: item._id ?? newId(),
});

function pagesWithIds({ invoiceStartRule, ...rest }: z.infer<typeof pagesInputSchema>): TemplatePages {
  return { ...rest, ...(invoiceStartRule ? { invoiceStartRule: withId(invoiceStartRule) } : {}) };
}

/**
 * The problems a change makes, keyed for its caller: those of the edited list (or entry, with `prefix`)
 * by their place in the body (`2.boundId`); a clash with another entry of the same list as the edited
 * entry's own (`key`); a problem it causes elsewhere by its full path. Older problems are not this
 * call's to answer for.
 */
function problemsOf(before: Template, after: Template, field: string, prefix = `${field}.`): Problems {
  const old = referenceProblems(before);
  const out: Problems = {};
  for (const [path, message] of Object.entries(referenceProblems(after))) {
    if (path.startsWith(prefix)) out[path.slice(prefix.length)] = message;
    else if (old[path] === message) continue;
    else if (path.startsWith(`${field}.`)) out[path.replace(/^[^.]+\.\d+\./, '')] ??= message;
    else out[path] = message;
  }
  return out;
}

function throwProblems(problems: Problems): void {
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  throw formError(problems, entries.length === 1 ? (entries[0]?.[1] ?? 'Invalid') : 'Form validation error');
}

// ---------------------------------------------------------------- create, change, delete

const loadSupplier = findSupplier;

/** What messages say of a supplier: its name, when it still has one. */
type Named = Partial<Pick<StoredSupplier, 'name'>>;

/** A new template: lists checked, ids given, a first version `v1`, status preupload. */
async function prepareNew(
  body: unknown,
  at = '',
): Promise<{ item: StoredTemplate; supplier: StoredSupplier }> {
  const raw = bodyObjectOf({ body });
  const field = (name: string) => `${at}${name}`;
  if (raw.status !== undefined && raw.status !== 'preupload')
    throw formError({ [field('status')]: 'A new template starts as preupload: upload a sample next' });
  if (raw.sampleKey !== undefined)
    throw formError({ [field('sampleKey')]: 'Upload the sample once the template exists' });
  const result = templateSchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw formError({ [field(issue?.path.map(String).join('.') || '_form')]: issue?.message ?? 'Invalid' });
  }
  const data = result.data;
  const supplier = await loadSupplier(data.supplierId);
  if (!supplier) throw formError({ [field('supplierId')]: 'No such supplier' });
  const now = new Date().toISOString();
  const versions: TemplateVersion[] =
    data.versions.length > 0
      ? data.versions.map((v) => ({ ...withId(v), createdAt: now }))
      : [{ _id: newId(), name: 'v1', createdAt: now }];
  const template: StoredTemplate = {
    _id: newId(),
    supplierId: data.supplierId,
    type: data.type,
    ...(data.name ? { name: data.name } : {}),
    status: 'preupload',
    supplierRules: data.supplierRules.map(withId),
    versions,
    versionRules: data.versionRules.map(withId),
    pages: data.pages.map(pagesWithIds),
    bounds: data.bounds.map(withId),
    values: data.values.map((v) => ({ ...withId(v), type: v.type ?? KEY_TYPES[v.key] })),
    rates: data.rates.map(withId),
    createdAt: now,
    updatedAt: now,
  };
  const problems = referenceProblems(template);
  throwProblems(Object.fromEntries(Object.entries(problems).map(([k, v]) => [field(k), v])));
  return { item: template, supplier };
}

const duplicateMessage = (supplier: Named, type: string) =>
  `${supplier.name ?? 'This supplier'} already has a ${utilityName(type)} template`;

/** Claims the supplier's utility for the template, taking over a slot left by a deleted template. */
async function claimFor(template: Template, supplier: Named): Promise<void> {
  if (await claimSlot(template.supplierId, template.type, template._id)) return;
  const holder = await slotHolder(template.supplierId, template.type);
  if (holder === template._id) return;
  const held = holder ? await getTemplateItem(holder) : undefined;
  if (holder && (!held || held.deleted === true)) {
    if (await claimSlot(template.supplierId, template.type, template._id, holder)) return;
  }
  throw conflict(duplicateMessage(supplier, template.type));
}

async function refuseDuplicate(template: Template, supplier: Named): Promise<void> {
  const existing = await templatesOfSupplier(template.supplierId);
  if (existing.some((t) => t.type === template.type && t._id !== template._id))
    throw conflict(duplicateMessage(supplier, template.type));
}

async function insert(ctx: OpContext, template: StoredTemplate, supplier: Named): Promise<StoredTemplate> {
  const item = { ...template, createdBy: ctx.caller.sub };
  await refuseDuplicate(item, supplier);
  await claimFor(item, supplier);
  try {
    await insertTemplate(item);
  } catch (err) {
    await releaseSlot(item.supplierId, item.type, item._id);
    throw err;
  }
  await writeActivity(ctx.caller, { type: 'create', model: 'templates', modelId: item._id });
  return item;
}

/** POST /templates: one template per supplier and utility (409 otherwise), starting as preupload. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const { item, supplier } = await prepareNew(ctx.body);
  return { status: 201, body: await insert(ctx, item, supplier) };
});

const MAX_BULK = 20;

/** POST /templates/bulk: several templates, all checked (and none a duplicate) before any is written. */
const bulk = operation({}, async (ctx): Promise<OpResult> => {
  const bodies = parseOrThrow(z.array(z.unknown()).min(1).max(MAX_BULK), ctx.body);
  const prepared = [];
  const pairs = new Set<string>();
  for (const [i, body] of bodies.entries()) {
    const next = await prepareNew(body, `${i}.`);
    const pair = `${next.item.supplierId}#${next.item.type}`;
    if (pairs.has(pair)) throw conflict(duplicateMessage(next.supplier, next.item.type));
    pairs.add(pair);
    await refuseDuplicate(next.item, next.supplier);
    prepared.push(next);
  }
  const created: StoredTemplate[] = [];
  for (const { item, supplier } of prepared) created.push(await insert(ctx, item, supplier));
  return { status: 201, body: { data: created, total: created.length } };
});

const PATCH_FIELDS = ['name', 'status', 'sampleKey'];

/**
 * PATCH /templates/{id}: the name, the status and the sample. A sample must be this template's own
 * upload and a PDF; it moves a preupload template to uploaded. Ready needs supplier rules and something
 * to read. The supplier and utility never change: that is another template.
 */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const read = await loadTemplate(ctx.params.id);
  refuseUnknown(ctx.body, PATCH_FIELDS, 'Not changed here: each list has its own call');
  const patch = parseOrThrow(templatePatchSchema, ctx.body ?? {});
  const sampleKey =
    patch.sampleKey !== undefined && patch.sampleKey !== read.sampleKey
      ? await verifySample(read._id, patch.sampleKey, 'sampleKey')
      : undefined;
  const edit = (t: StoredTemplate): StoredTemplate => {
    const next: StoredTemplate = { ...t };
    if (patch.name !== undefined) {
      if (patch.name) next.name = patch.name;
      else delete next.name;
    }
    if (sampleKey !== undefined && sampleKey !== t.sampleKey) {
      next.sampleKey = sampleKey;
      if (t.status === 'preupload') next.status = 'uploaded';
    }
    if (patch.status !== undefined) {
      if (patch.status !== 'preupload' && !next.sampleKey)
        throw formError({ status: 'Upload a sample invoice first' });
      if (patch.status === 'ready') throwProblems(readinessProblems(next));
      next.status = patch.status;
    }
    return next;
  };
  return { body: await saveTemplate(ctx, read._id, edit, 'Template changed') };
});

/** DELETE /templates/{id}: gone from lists and capture; the supplier's utility is free for another. */
const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const t = await getTemplateItem(ctx.params.id);
  if (!t) throw notFound('No such template');
  if (t.deleted === true) return { body: t };
  const changed = await changeTemplate(t._id, (current) =>
    current.deleted === true
      ? undefined
      : { ...current, deleted: true, deletedAt: new Date().toISOString(), deletedBy: ctx.caller.sub },
  );
  if (!changed?.written) return { body: changed ? changed.after : t };
  const next = changed.after;
  await releaseSlot(t.supplierId, t.type, t._id);
  await writeActivity(ctx.caller, { type: 'delete', model: 'templates', modelId: t._id });
  return { body: next };
});

/** PUT /templates/{id}: brings a deleted template back, unless its supplier's utility has another now. */
const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const t = await getTemplateItem(ctx.params.id);
  if (!t) throw notFound('No such template');
  if (t.deleted !== true) return { body: t };
  const supplier: Named = (await loadSupplier(t.supplierId)) ?? {};
  await refuseDuplicate(t, supplier);
  await claimFor(t, supplier);
  const changed = await changeTemplate(t._id, (current) => {
    if (current.deleted !== true) return undefined;
    const { deleted: _d, deletedAt: _a, deletedBy: _b, ...rest } = current;
    return { ...rest, _id: current._id, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound('No such template');
  const next = changed.after;
  await writeActivity(ctx.caller, { type: 'restore', model: 'templates', modelId: t._id });
  return { body: next };
});

/** GET /templates/invoice-keys: what a template value can fill, with names and the type each reads as. */
const invoiceKeys = operation(
  {},
  async (): Promise<OpResult> => ({
    body: { data: INVOICE_KEYS.map((key) => ({ key, name: keyName(key), type: KEY_TYPES[key] })) },
  }),
);

// ---------------------------------------------------------------- lists replaced whole

function refuseRemovedBounds(t: Template, bounds: TemplateBound[]): void {
  const after = new Map(bounds.map((b) => [b._id, b]));
  const problems: string[] = [];
  for (const bound of t.bounds) {
    const users = boundUsers(t, bound._id);
    if (users.length === 0) continue;
    const kept = after.get(bound._id);
    if (!kept)
      problems.push(`The bound “${bound.name}” is still used by ${users.join(', ')}: remove those first.`);
    else if (kept.versionId !== bound.versionId)
      problems.push(
        `The bound “${bound.name}” is used by ${users.join(', ')} and cannot move to another version.`,
      );
  }
  if (problems.length > 0) throw formError({ _form: problems.join(' ') }, problems.join(' '));
}

function refuseRemovedVersions(t: Template, versions: TemplateVersion[]): void {
  const kept = new Set(versions.map((v) => v._id));
  const problems = t.versions
    .filter((v) => !kept.has(v._id))
    .map((v) => ({ v, users: versionUsers(t, v._id) }))
    .filter(({ users }) => users.length > 0)
    .map(({ v, users }) => `The version “${v.name}” still has ${users.join(', ')}: remove those first.`);
  if (problems.length > 0) throw formError({ _form: problems.join(' ') }, problems.join(' '));
}

const LIST_NAMES: Record<TemplateListName, string> = {
  versions: 'Versions',
  'version-rules': 'Version rules',
  'supplier-rules': 'Supplier rules',
  pages: 'Pages',
  bounds: 'Bounds',
};

type ListEdit = (t: StoredTemplate, body: unknown) => StoredTemplate;

const LIST_EDITS: Record<TemplateListName, ListEdit> = {
  versions: (t, body) => {
    const created = new Map(t.versions.map((v) => [v._id, v.createdAt]));
    const now = new Date().toISOString();
    const versions: TemplateVersion[] = parseOrThrow(TEMPLATE_LISTS.versions, body).map((v) => {
      const _id = v._id ?? newId();
      return { _id, name: v.name, createdAt: created.get(_id) ?? now };
    });
    refuseRemovedVersions(t, versions);
    return { ...t, versions };
  },
  'version-rules': (t, body) => ({
    ...t,
    versionRules: parseOrThrow(TEMPLATE_LISTS['version-rules'], body).map(withId),
  }),
  'supplier-rules': (t, body) => ({
    ...t,
    supplierRules: parseOrThrow(TEMPLATE_LISTS['supplier-rules'], body).map(withId),
  }),
  pages: (t, body) => ({
    ...t,
    pages: parseOrThrow(TEMPLATE_LISTS.pages, body).map(pagesWithIds),
  }),
  bounds: (t, body) => {
    const bounds: TemplateBound[] = parseOrThrow(TEMPLATE_LISTS.bounds, body).map(withId);
    refuseRemovedBounds(t, bounds);
    return { ...t, bounds };
  },
};

/** PUT /templates/{id}/{list}: the list replaced whole, checked on its own and against the rest. */
function replaceList(name: TemplateListName): Operation {
  return operation({ params: ['id'] }, async (ctx) => {
    const { _id } = await loadTemplate(ctx.params.id);
    const edit = (t: StoredTemplate): StoredTemplate => {
      const next = LIST_EDITS[name](t, ctx.body);
      throwProblems(problemsOf(t, next, LIST_FIELDS[name]));
      return next;
    };
    return { body: await saveTemplate(ctx, _id, edit, `${LIST_NAMES[name]} saved`) };
  });
}

// ---------------------------------------------------------------- values and rates, one at a time

const VALUE_FIELDS = Object.keys(valueInputSchema.shape);
const RATE_FIELDS = Object.keys(rateInputSchema.shape);

function parseValue(input: unknown): TemplateValue {
  const v = parseOrThrow(valueInputSchema, input);
  return { ...withId(v), type: v.type ?? KEY_TYPES[v.key] };
}

const parseRate = (input: unknown): TemplateRate => withId(parseOrThrow(rateInputSchema, input));

/** Checks a template whose `field` list now holds `item` at `index`: its problems are the item's own. */
function checkItem(t: Template, next: Template, field: 'values' | 'rates', index: number): void {
  throwProblems(problemsOf(t, next, field, `${field}.${index}.`));
}

function oneOf<T extends { _id: string }>(items: T[], id: string, what: string): number {
  const index = items.findIndex((i) => i._id === id);
  if (index < 0) throw notFound(`No such ${what} in this template`);
  return index;
}

/** POST /templates/{id}/values: adds a value read from one of the template's bounds. */
const addValue = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  refuseUnknown(ctx.body, VALUE_FIELDS);
  const value = parseValue(ctx.body);
  const { _id } = await loadTemplate(ctx.params.id);
  const edit = (t: StoredTemplate): StoredTemplate => {
    if (t.values.some((v) => v._id === value._id)) throw formError({ _id: 'Another value has this id' });
    const next = { ...t, values: [...t.values, value] };
    checkItem(t, next, 'values', next.values.length - 1);
    return next;
  };
  await saveTemplate(ctx, _id, edit, `Value ${keyName(value.key)} added`);
  return { status: 201, body: value };
});

/** PATCH /templates/{id}/values/{valueId}: the fields given change; a new key brings its own type. */
const updateValue = operation({ params: ['id', 'valueId'] }, async (ctx): Promise<OpResult> => {
  refuseUnknown(ctx.body, VALUE_FIELDS);
  const { _id } = await loadTemplate(ctx.params.id);
  const patch = bodyObjectOf(ctx);
  let value: TemplateValue | undefined;
  const edit = (t: StoredTemplate): StoredTemplate => {
    const index = oneOf(t.values, ctx.params.valueId, 'value');
    const old = t.values[index] as TemplateValue;
    if (patch._id !== undefined && patch._id !== old._id)
      throw formError({ _id: 'A value’s id cannot change' });
    const merged: Record<string, unknown> = { ...old, ...patch };
    // A value still read as its old key's type follows the key it now reads.
    if (patch.key !== undefined && patch.type === undefined && old.type === KEY_TYPES[old.key])
      delete merged.type;
    for (const [k, v] of Object.entries(patch)) if (v === null) delete merged[k];
    const changed = parseValue(merged);
    value = changed;
    const next = { ...t, values: t.values.map((v, i) => (i === index ? changed : v)) };
    checkItem(t, next, 'values', index);
    return next;
  };
  const saved = await saveTemplate(ctx, _id, edit, () =>
    value ? `Value ${keyName(value.key)} changed` : 'Value changed',
  );
  return { body: value ?? saved };
});

const deleteValue = operation({ params: ['id', 'valueId'] }, async (ctx): Promise<OpResult> => {
  const { _id } = await loadTemplate(ctx.params.id);
  let value: TemplateValue | undefined;
  const saved = await saveTemplate(
    ctx,
    _id,
    (t) => {
      const index = oneOf(t.values, ctx.params.valueId, 'value');
      value = t.values[index];
      return { ...t, values: t.values.filter((_v, i) => i !== index) };
    },
    'Value removed',
  );
  return { body: value ?? saved };
});

/** POST /templates/{id}/rates: adds a table of charge lines read from a bound. */
const addRate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  refuseUnknown(ctx.body, RATE_FIELDS);
  const rate = parseRate(ctx.body);
  const { _id } = await loadTemplate(ctx.params.id);
  const edit = (t: StoredTemplate): StoredTemplate => {
    if (t.rates.some((r) => r._id === rate._id)) throw formError({ _id: 'Another rate has this id' });
    const next = { ...t, rates: [...t.rates, rate] };
    checkItem(t, next, 'rates', next.rates.length - 1);
    return next;
  };
  await saveTemplate(ctx, _id, edit, 'Rate added');
  return { status: 201, body: rate };
});

const updateRate = operation({ params: ['id', 'rateId'] }, async (ctx): Promise<OpResult> => {
  refuseUnknown(ctx.body, RATE_FIELDS);
  const { _id } = await loadTemplate(ctx.params.id);
  const patch = bodyObjectOf(ctx);
  let rate: TemplateRate | undefined;
  const edit = (t: StoredTemplate): StoredTemplate => {
    const index = oneOf(t.rates, ctx.params.rateId, 'rate');
    const old = t.rates[index] as TemplateRate;
    if (patch._id !== undefined && patch._id !== old._id)
      throw formError({ _id: 'A rate’s id cannot change' });
    const merged: Record<string, unknown> = { ...old, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === null) delete merged[k];
    const changed = parseRate(merged);
    rate = changed;
    const next = { ...t, rates: t.rates.map((r, i) => (i === index ? changed : r)) };
    checkItem(t, next, 'rates', index);
    return next;
  };
  const saved = await saveTemplate(ctx, _id, edit, 'Rate changed');
  return { body: rate ?? saved };
});

const deleteRate = operation({ params: ['id', 'rateId'] }, async (ctx): Promise<OpResult> => {
  const { _id } = await loadTemplate(ctx.params.id);
  let rate: TemplateRate | undefined;
  const saved = await saveTemplate(
    ctx,
    _id,
    (t) => {
      const index = oneOf(t.rates, ctx.params.rateId, 'rate');
      rate = t.rates[index];
      return { ...t, rates: t.rates.filter((_r, i) => i !== index) };
    },
    'Rate removed',
  );
  return { body: rate ?? saved };
});

export const TEMPLATE_OPERATIONS: Operations = {
  'templates.create': create,
  'templates.bulk': bulk,
  'templates.update': update,
  'templates.delete': remove,
  'templates.restore': restore,
  'templates.invoiceKeys': invoiceKeys,
  'templates.versions': replaceList('versions'),
  'templates.versionRules': replaceList('version-rules'),
  'templates.supplierRules': replaceList('supplier-rules'),
  'templates.pages': replaceList('pages'),
  'templates.bounds': replaceList('bounds'),
  'templates.addValue': addValue,
  'templates.updateValue': updateValue,
  'templates.deleteValue': deleteValue,
  'templates.addRate': addRate,
  'templates.updateRate': updateRate,
  'templates.deleteRate': deleteRate,
};
