import * as z from 'zod';
import {
  INVOICE_KEYS,
  type InvoiceKey,
  RATE_COLUMNS,
  type RateColumn,
  type Template,
  type TemplateValueType,
} from '../capture/model.ts';
import {
  DATE_FORMATS,
  NUMBER_FORMATS,
  PRICE_FORMATS,
  TEMPLATE_VALUE_TYPES,
  TEMPLATE_VALUES,
} from '../data/template-value-format.ts';
import { idSchema, nonEmpty, utilityTypeSchema } from './common.ts';

/**
 * Supplier invoice templates (02 §3 Template, §7 Templates) as the API takes them. Lists are replaced
 * whole, so each element may bring its own `_id` (the editor names a bound it has just drawn) or leave
 * the server to give it one. What one list says about another (a value's bound, a rule's version) is
 * checked on the whole template by `referenceProblems`.
 */

export const TEMPLATE_STATUSES = ['preupload', 'uploaded', 'ready'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** Where template samples live in the uploads bucket: never under `invoices/`, which starts a capture. */
export const templateSamplePrefix = (templateId: string) => `template-samples/${templateId}/`;

export const TEMPLATE_LIMITS = {
  rules: 50,
  versions: 20,
  bounds: 200,
  values: 200,
  rates: 50,
  regexLength: 300,
} as const;

const elementId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Must be up to 40 letters, digits, - or _');

/** A regular expression the extractor will compile: refused here, with the reason, when it cannot. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : '';
    return `Not a valid regular expression${reason ? ` (${reason})` : ''}`;
  }
}

const regexSchema = z
  .string()
  .min(1, 'This field is required')
  .max(TEMPLATE_LIMITS.regexLength, `Must be at most ${TEMPLATE_LIMITS.regexLength} characters`)
  .superRefine((value, ctx) => {
    const problem = regexProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const pageOfRule = z
  .number({ error: 'Must be a page number' })
  .int('Must be a whole page number')
  .min(1, 'Pages count from 1')
  .max(999, 'Must be at most 999');

const textRuleShape = {
  _id: elementId.optional(),
  type: z.enum(['contains', 'regex'], { error: 'Must be contains or regex' }),
  value: nonEmpty.max(500, 'Must be at most 500 characters'),
  page: pageOfRule.optional(),
  negate: z.boolean().optional(),
};

function checkRuleRegex(rule: { type: string; value: string }, ctx: z.RefinementCtx) {
  if (rule.type !== 'regex') return;
  const problem =
    rule.value.length > TEMPLATE_LIMITS.regexLength
      ? `Must be at most ${TEMPLATE_LIMITS.regexLength} characters`
      : regexProblem(rule.value);
  if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
}

export const textRuleInputSchema = z.object(textRuleShape).superRefine(checkRuleRegex);
export const versionRuleInputSchema = z
  .object({ ...textRuleShape, versionId: elementId })
  .superRefine(checkRuleRegex);

export const versionInputSchema = z.object({
  _id: elementId.optional(),
  name: nonEmpty.max(60, 'Must be at most 60 characters'),
});

export const pagesInputSchema = z.object({
  versionId: elementId,
  invoiceStartRule: textRuleInputSchema.optional(),
  pagesPerInvoice: z
    .number({ error: 'Must be a number of pages' })
    .int('Must be a whole number of pages')
    .min(1, 'Must be at least 1')
    .max(200, 'Must be at most 200')
    .optional(),
});

const fraction = z
  .number({ error: 'Must be a fraction of the page' })
  .min(0, 'Must be between 0 and 1')
  .max(1, 'Must be between 0 and 1');
const offset = z
  .number({ error: 'Must be a fraction of the page' })
  .min(-1, 'Must be between -1 and 1')
  .max(1, 'Must be between -1 and 1');
/** Rounding in a browser's arithmetic must not push a bound drawn to the page's edge off it. */
const EDGE = 1e-6;

export const boundInputSchema = z
  .object({
    _id: elementId.optional(),
    versionId: elementId,
    name: nonEmpty.max(100, 'Must be at most 100 characters'),
    page: z
      .number({ error: 'Must be a page number' })
      .int('Must be a whole page number')
      .refine((p) => p >= 1 || p === -1, 'Pages count from 1; -1 is the last page')
      .refine((p) => p <= 999, 'Must be at most 999'),
    Left: fraction,
    Top: fraction,
    Width: fraction.refine((w) => w > 0, 'Must be wider than nothing'),
    Height: fraction.refine((h) => h > 0, 'Must be taller than nothing'),
    anchor: z
      .object({ text: nonEmpty.max(200, 'Must be at most 200 characters'), left: offset, top: offset })
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.Left + b.Width > 1 + EDGE)
      ctx.addIssue({ code: 'custom', path: ['Width'], message: 'The bound runs off the right of the page' });
    if (b.Top + b.Height > 1 + EDGE)
      ctx.addIssue({
        code: 'custom',
        path: ['Height'],
        message: 'The bound runs off the bottom of the page',
      });
  });

const meterIndex = z
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .min(0, 'Meters count from 0')
  .max(99, 'Must be at most 99');

export const valueInputSchema = z.object({
  _id: elementId.optional(),
  versionId: elementId,
  key: z.enum(INVOICE_KEYS, { error: 'Must be one of the invoice keys' }),
  boundId: elementId,
  /** Absent: the key's own type (GET /templates/invoice-keys). */
  type: z
    .enum(TEMPLATE_VALUE_TYPES, { error: `Must be one of ${TEMPLATE_VALUE_TYPES.join(', ')}` })
    .optional(),
  format: z.string().trim().max(40).optional(),
  regex: regexSchema.optional(),
  meterIndex: meterIndex.optional(),
  utilityType: utilityTypeSchema.optional(),
});

export const rateColumnSchema = z
  .object({
    field: z.enum(RATE_COLUMNS, { error: `Must be one of ${RATE_COLUMNS.join(', ')}` }),
    left: fraction,
    right: fraction,
    format: z.string().trim().max(40).optional(),
  })
  .refine((c) => c.right > c.left, { path: ['right'], message: 'Must be right of the column’s left edge' });

export const rateInputSchema = z
  .object({
    _id: elementId.optional(),
    versionId: elementId,
    boundId: elementId,
    columns: z
      .array(rateColumnSchema)
      .min(1, 'A rate needs at least one column')
      .max(RATE_COLUMNS.length, `At most ${RATE_COLUMNS.length} columns`),
    skipRegex: regexSchema.optional(),
    meterIndex: meterIndex.optional(),
    utilityType: utilityTypeSchema.optional(),
  })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.columns.forEach((c, i) => {
      if (seen.has(c.field))
        ctx.addIssue({
          code: 'custom',
          path: ['columns', i, 'field'],
          message: 'Each column reads one field',
        });
      seen.add(c.field);
    });
  });

const list = <S extends z.ZodType>(schema: S, max: number) =>
  z.array(schema).max(max, `At most ${max} entries`).default([]);

/** A whole template, as the generic calls describe and the create call takes it. */
export const templateSchema = z.object({
  supplierId: idSchema,
  type: utilityTypeSchema,
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
  status: z.enum(TEMPLATE_STATUSES).default('preupload'),
  sampleKey: z.string().max(500).optional(),
  supplierRules: list(textRuleInputSchema, TEMPLATE_LIMITS.rules),
  versions: list(versionInputSchema, TEMPLATE_LIMITS.versions),
  versionRules: list(versionRuleInputSchema, TEMPLATE_LIMITS.rules),
  pages: list(pagesInputSchema, TEMPLATE_LIMITS.versions),
  bounds: list(boundInputSchema, TEMPLATE_LIMITS.bounds),
  values: list(valueInputSchema, TEMPLATE_LIMITS.values),
  rates: list(rateInputSchema, TEMPLATE_LIMITS.rates),
});

/** The lists PUT /templates/{id}/{list} replaces whole, by path segment. */
export const TEMPLATE_LISTS = {
  versions: z.array(versionInputSchema).min(1, 'A template needs a version').max(TEMPLATE_LIMITS.versions),
  'version-rules': z.array(versionRuleInputSchema).max(TEMPLATE_LIMITS.rules),
  'supplier-rules': z.array(textRuleInputSchema).max(TEMPLATE_LIMITS.rules),
  pages: z.array(pagesInputSchema).max(TEMPLATE_LIMITS.versions),
  bounds: z.array(boundInputSchema).max(TEMPLATE_LIMITS.bounds),
} as const;
export type TemplateListName = keyof typeof TEMPLATE_LISTS;

/** The template field each replaceable list is stored in. */
export const LIST_FIELDS = {
  versions: 'versions',
  'version-rules': 'versionRules',
  'supplier-rules': 'supplierRules',
  pages: 'pages',
  bounds: 'bounds',
} as const satisfies Record<TemplateListName, keyof Template>;

export const templatePatchSchema = z.object({
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
  status: z.enum(TEMPLATE_STATUSES, { error: `Must be one of ${TEMPLATE_STATUSES.join(', ')}` }).optional(),
  sampleKey: z.string().max(500).optional(),
});

/** What a value of each key is read as when the template does not say (GET /templates/invoice-keys). */
export const KEY_TYPES: Readonly<Record<InvoiceKey, TemplateValueType>> = Object.fromEntries(
  INVOICE_KEYS.map((key) => [key, TEMPLATE_VALUES.find((v) => v.value === key)?.type ?? 'text']),
) as Record<InvoiceKey, TemplateValueType>;

export const keyName = (key: string) => TEMPLATE_VALUES.find((v) => v.value === key)?.name ?? key;

const formatsOf: Record<TemplateValueType, readonly string[]> = {
  price: PRICE_FORMATS.map((f) => f.value),
  date: DATE_FORMATS.map((f) => f.value),
  number: NUMBER_FORMATS.map((f) => f.value),
  text: [],
  boolean: [],
};

/** A value's or column's format must be one GET /util/template-value-format lists for its type. */
export function formatProblem(type: TemplateValueType, format: string | undefined): string | undefined {
  if (!format) return undefined;
  const known = formatsOf[type];
  if (known.length === 0) return `A ${type} value takes no format`;
  return known.includes(format) ? undefined : `Not a ${type} format: use one of ${known.join(', ')}`;
}

/** The kind of text each rate column holds, for its format. */
export const COLUMN_TYPES: Readonly<Record<RateColumn, TemplateValueType>> = {
  description: 'text',
  units: 'number',
  unitRate: 'price',
  amount: 'price',
  unit: 'text',
  startDate: 'date',
  endDate: 'date',
};

type Problems = Record<string, string>;

function duplicateIds(items: readonly { _id: string }[], field: string, out: Problems) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item._id)) out[`${field}.${i}._id`] = 'Another entry has the same id';
    seen.add(item._id);
  });
}

/**
 * What one part of a template says about another, checked on the whole template: ids unique per list,
 * every version, bound and key a list names exists, a value or rate reads a bound of its own version,
 * one page layout per version, formats that fit their types. Keys are field paths (`values.2.boundId`).
 */
export function referenceProblems(t: Template): Problems {
  const out: Problems = {};
  const versions = new Set(t.versions.map((v) => v._id));
  const bounds = new Map(t.bounds.map((b) => [b._id, b]));
  const noVersion = 'Names no version of this template';
  duplicateIds(t.versions, 'versions', out);
  duplicateIds(t.supplierRules, 'supplierRules', out);
  duplicateIds(t.versionRules, 'versionRules', out);
  duplicateIds(t.bounds, 'bounds', out);
  duplicateIds(t.values, 'values', out);
  duplicateIds(t.rates, 'rates', out);
  const versionNames = new Set<string>();
  t.versions.forEach((v, i) => {
    const name = v.name.toLowerCase();
    if (versionNames.has(name)) out[`versions.${i}.name`] = 'Another version has this name';
    versionNames.add(name);
  });
  t.versionRules.forEach((r, i) => {
    if (!versions.has(r.versionId)) out[`versionRules.${i}.versionId`] = noVersion;
  });
  const layouts = new Set<string>();
  t.pages.forEach((p, i) => {
    if (!versions.has(p.versionId)) out[`pages.${i}.versionId`] = noVersion;
    else if (layouts.has(p.versionId)) out[`pages.${i}.versionId`] = 'This version already has a page layout';
    layouts.add(p.versionId);
  });
  const boundNames = new Set<string>();
  t.bounds.forEach((b, i) => {
    if (!versions.has(b.versionId)) out[`bounds.${i}.versionId`] = noVersion;
    const name = `${b.versionId}\u0000${b.name.toLowerCase()}`;
    if (boundNames.has(name)) out[`bounds.${i}.name`] = 'Another bound of this version has this name';
    boundNames.add(name);
  });
  const readKeys = new Map<string, number>();
  t.values.forEach((v, i) => {
    if (!versions.has(v.versionId)) out[`values.${i}.versionId`] = noVersion;
    const bound = bounds.get(v.boundId);
    if (!bound) out[`values.${i}.boundId`] = 'Names no bound of this template';
    else if (bound.versionId !== v.versionId)
      out[`values.${i}.boundId`] = `The bound “${bound.name}” belongs to another version`;
    const format = formatProblem(v.type, v.format);
    if (format) out[`values.${i}.format`] = format;
    const slot = [v.versionId, v.key, v.meterIndex ?? '', v.utilityType ?? ''].join('\u0000');
    const earlier = readKeys.get(slot);
    if (earlier !== undefined)
      out[`values.${i}.key`] = `${keyName(v.key)} is already read by another value of this version`;
    else readKeys.set(slot, i);
  });
  t.rates.forEach((r, i) => {
    if (!versions.has(r.versionId)) out[`rates.${i}.versionId`] = noVersion;
    const bound = bounds.get(r.boundId);
    if (!bound) out[`rates.${i}.boundId`] = 'Names no bound of this template';
    else if (bound.versionId !== r.versionId)
      out[`rates.${i}.boundId`] = `The bound “${bound.name}” belongs to another version`;
    r.columns.forEach((c, j) => {
      const format = formatProblem(COLUMN_TYPES[c.field], c.format);
      if (format) out[`rates.${i}.columns.${j}.format`] = format;
    });
  });
  return out;
}

/** What still uses a bound: the values and rates that read it, by name, for a refusal to remove it. */
export function boundUsers(t: Template, boundId: string): string[] {
  return [
    ...t.values.filter((v) => v.boundId === boundId).map((v) => `the value ${keyName(v.key)}`),
    ...t.rates.flatMap((r, i) => (r.boundId === boundId ? [`rate ${i + 1}`] : [])),
  ];
}

/** What still belongs to a version: its rules, page layout, bounds, values and rates. */
export function versionUsers(t: Template, versionId: string): string[] {
  const count = (n: number, what: string) => (n > 0 ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
  return [
    ...count(t.versionRules.filter((r) => r.versionId === versionId).length, 'version rule'),
    ...count(t.pages.filter((p) => p.versionId === versionId).length, 'page layout'),
    ...count(t.bounds.filter((b) => b.versionId === versionId).length, 'bound'),
    ...count(t.values.filter((v) => v.versionId === versionId).length, 'value'),
    ...count(t.rates.filter((r) => r.versionId === versionId).length, 'rate'),
  ];
}

/**
 * A template is ready for capture only when it can tell its supplier's invoices apart (with no supplier
 * rule it would claim every document) and reads something from them.
 */
export function readinessProblems(t: Template): Problems {
  const out: Problems = {};
  if (t.supplierRules.length === 0)
    out.status = 'Add a supplier rule first: without one the template would match every invoice';
  else if (t.values.length + t.rates.length === 0)
    out.status = 'Add a value or a rate first: the template reads nothing yet';
  return out;
}
