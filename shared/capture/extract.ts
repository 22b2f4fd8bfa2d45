import type { UtilityType } from '../schemas/common.ts';
import { extractGeneric, type GenericRead, splitGeneric } from './generic-extractor.ts';
import type {
  CaptureResults,
  ExtractedRate,
  ExtractedValues,
  InvoiceExtract,
  InvoiceKey,
  MeterRef,
  SupplierRule,
  Template,
  TemplateVersion,
} from './model.ts';
import { buildPages, type PageDocument, textInBox } from './pages.ts';
import {
  allPages,
  chooseVersion,
  identifySupplier,
  type MeterRead,
  pagesRuleOf,
  placeBound,
  readInvoice,
  ruleHolds,
  splitInvoices,
  type TemplateRead,
} from './template-engine.ts';
import type { BoundingBox, TextractOutput } from './textract.ts';
import { readingFromValues } from './value-parsing.ts';

/**
 * From Textract's output to capture results: the best matching supplier template reads what it can,
 * the generic extractor fills every key the template left empty, and reads documents no template
 * matches on its own.
 */

interface TemplateRun {
  template: Template;
  version?: TemplateVersion;
  groups: number[][];
  reads: TemplateRead[];
}

function countRead(read: TemplateRead): number {
  const meters = read.meters.reduce((s, m) => s + Object.keys(m.values).length + m.rates.length, 0);
  return Object.keys(read.values).length + read.rates.length + meters;
}

function runTemplate(template: Template, doc: PageDocument): TemplateRun {
  const version = chooseVersion(template, doc);
  const groups = splitInvoices(pagesRuleOf(template, version?._id), doc);
  return {
    template,
    ...(version ? { version } : {}),
    groups,
    reads: groups.map((pages) => readInvoice(template, version?._id, doc, pages)),
  };
}

/** Template values win; the generic extractor's fill the keys the template did not yield. */
function mergeValues(template: ExtractedValues | undefined, generic: ExtractedValues): ExtractedValues {
  const merged: ExtractedValues = { ...generic };
  for (const [key, value] of Object.entries(template ?? {}) as [InvoiceKey, ExtractedValues[InvoiceKey]][]) {
    if (value && value.value !== null && value.value !== '') merged[key] = value;
  }
  return merged;
}

function mergeMeters(read: TemplateRead | undefined, generic: GenericRead): MeterRead[] {
  const templateMeters = read?.meters ?? [];
  if (templateMeters.length === 0) return generic.meters;
  return templateMeters.map((meter) => {
    const twin =
      generic.meters.length === templateMeters.length ? generic.meters[meter.meterIndex] : undefined;
    const values = mergeValues(meter.values, twin?.values ?? {});
    const reading = readingFromValues(values);
    return {
      ...meter,
      values,
      rates: meter.rates.length > 0 ? meter.rates : (twin?.rates ?? []),
      readings: reading ? [reading] : [],
    };
  });
}

interface Assembled {
  invoice: InvoiceExtract;
  meters: MeterRead[];
  /** The meters carry their own values (a multi-meter invoice). */
  multi: boolean;
}

function assemble(
  index: number,
  pages: number[],
  generic: GenericRead,
  run: TemplateRun | undefined,
  read: TemplateRead | undefined,
): Assembled {
  const values = mergeValues(read?.values, generic.values);
  const templateRates = read ? read.rates.length > 0 || read.meters.some((m) => m.rates.length > 0) : false;
  const rates: ExtractedRate[] = templateRates ? (read?.rates ?? []) : generic.rates;
  const multi = (read?.meters.length ?? 0) > 0 || generic.meters.length > 1;
  let meters = mergeMeters(read, generic);
  if (!multi) {
    // One meter: the template's reads when it read any, else the generic extractor's (a register each).
    const reading = readingFromValues(values);
    const templateReads = read?.values.openingRead !== undefined || read?.values.closingRead !== undefined;
    const genericReadings = generic.meters[0]?.readings ?? [];
    const readings =
      !templateReads && genericReadings.length > 0 ? genericReadings : reading ? [reading] : [];
    const utilityType: UtilityType = run?.template.type ?? generic.utilityType ?? 'electricity';
    meters = [{ meterIndex: 0, utilityType, values: {}, rates: [], readings }];
  }
  const utilityType = run?.template.type ?? generic.utilityType;
  const refs: MeterRef[] = meters
    .filter((m) => multi || values.meterPointNumber || m.readings.length > 0)
    .map((m) => {
      const point = (multi ? m.values.meterPointNumber : values.meterPointNumber)?.value;
      return {
        utilityType: m.utilityType,
        index: m.meterIndex,
        ...(typeof point === 'string' && point !== '' ? { meterPointNumber: point } : {}),
      };
    });
  const invoice: InvoiceExtract = {
    index,
    pages,
    method: run ? 'template' : 'generic',
    ...(run ? { supplierId: run.template.supplierId, templateId: run.template._id } : {}),
    ...(run?.version ? { versionId: run.version._id } : {}),
    ...(utilityType ? { utilityType } : {}),
    values,
    rates,
    multiMeter: { meters: refs },
    // A template's totals are checked by the validation rules; the generic reader's by what adds up.
    ...(!run && generic.totalsCheck ? { totalsCheck: generic.totalsCheck } : {}),
    // A template knows its supplier; a bill read without one is matched by what it prints.
    ...(!run ? { supplierClues: generic.supplierClues } : {}),
  };
  return { invoice, meters, multi };
}

/** Reads every invoice of an analysed document. Pure: no I/O, a few milliseconds for a few pages. */
export function extractInvoices(output: TextractOutput, templates: readonly Template[]): CaptureResults {
  const doc = buildPages(output.document);
  let run: TemplateRun | undefined;
  let runScore = -1;
  for (const template of identifySupplier(templates, doc)) {
    const candidate = runTemplate(template, doc);
    const score = candidate.reads.reduce((s, r) => s + countRead(r), 0);
    if (score > runScore) {
      run = candidate;
      runScore = score;
    }
  }
  const groups = run ? run.groups : splitGeneric(doc);
  const results: CaptureResults = {
    pageCount: doc.pageCount,
    ocr: output.ocr ?? false,
    multiInvoice: { invoices: [] },
    extractMeterValues: [],
    extractRates: [],
    extractReadings: [],
  };
  groups.forEach((pages, index) => {
    const generic = extractGeneric(doc, pages, output.expense);
    const { invoice, meters, multi } = assemble(index, pages, generic, run, run?.reads[index]);
    results.multiInvoice.invoices.push(invoice);
    for (const meter of meters) {
      const key = { invoiceIndex: index, utilityType: meter.utilityType, meterIndex: meter.meterIndex };
      if (multi && Object.keys(meter.values).length > 0)
        results.extractMeterValues.push({ ...key, values: meter.values });
      if (meter.rates.length > 0) results.extractRates.push({ ...key, rates: meter.rates });
      if (meter.readings.length > 0) results.extractReadings.push({ ...key, readings: meter.readings });
    }
  });
  return results;
}

const present = (values: ExtractedValues, key: InvoiceKey) => {
  const v = values[key]?.value;
  return v !== undefined && v !== null && v !== '';
};

/**
 * Whether enough was read for the invoice to be 'captured' rather than left for 'manual' entry: what
 * it is (an invoice number or a meter point), when (a period or an invoice date) and how much (a total).
 * A bill in another currency than pounds is left for a person to look at: its amounts cannot be checked
 * against sterling tariffs and levies as they stand; so is one whose net and tax do not make its total.
 */
export function isInvoiceComplete(extract: InvoiceExtract): boolean {
  const v = extract.values;
  const identified =
    present(v, 'invoiceNumber') ||
    present(v, 'meterPointNumber') ||
    extract.multiMeter.meters.some((m) => Boolean(m.meterPointNumber));
  const dated = (present(v, 'startDate') && present(v, 'endDate')) || present(v, 'invoiceDate');
  const priced = present(v, 'grossTotal') || present(v, 'netTotal');
  const sterling = !present(v, 'currency') || v.currency?.value === 'GBP';
  // Net + tax that do not make the total: one of the three was misread.
  const adds = extract.totalsCheck?.taxAdds !== false;
  return identified && dated && priced && sterling && adds;
}

/** 'captured' when every invoice of the document is complete, else 'manual'. */
export function captureStatus(results: CaptureResults): 'captured' | 'manual' {
  const invoices = results.multiInvoice.invoices;
  return invoices.length > 0 && invoices.every(isInvoiceComplete) ? 'captured' : 'manual';
}

export interface PreviewBound {
  boundId: string;
  name: string;
  /** 1-based page of the document */
  page: number;
  box: BoundingBox;
  anchorFound?: boolean;
  text: string;
}

export interface TemplatePreview {
  pageCount: number;
  supplierRules: { rule: SupplierRule; holds: boolean }[];
  supplierMatched: boolean;
  versionId?: string;
  invoices: {
    index: number;
    pages: number[];
    values: ExtractedValues;
    rates: ExtractedRate[];
    meters: MeterRead[];
    bounds: PreviewBound[];
  }[];
}

/**
 * What a template reads from a sample, for the template editor: whether each supplier rule holds, the
 * version and invoices it finds, and each bound where it lands with its text. Only the template reads:
 * nothing is filled in by the generic extractor, so the editor shows the template as it is.
 */
export function previewTemplate(output: TextractOutput, template: Template): TemplatePreview {
  const doc = buildPages(output.document);
  const pages = allPages(doc);
  const supplierRules = template.supplierRules.map((rule) => ({ rule, holds: ruleHolds(rule, doc, pages) }));
  const run = runTemplate(template, doc);
  return {
    pageCount: doc.pageCount,
    supplierRules,
    supplierMatched: supplierRules.length > 0 && supplierRules.every((r) => r.holds),
    ...(run.version ? { versionId: run.version._id } : {}),
    invoices: run.groups.map((groupPages, index) => {
      const read = run.reads[index] as TemplateRead;
      return {
        index,
        pages: groupPages,
        values: read.values,
        rates: read.rates,
        meters: read.meters,
        bounds: template.bounds
          .filter((b) => !run.version || b.versionId === run.version._id)
          .map((b) => placeBound(b, doc, groupPages))
          .filter((p) => p !== undefined)
          .map((p) => {
            const page = doc.pages[p.page - 1];
            return {
              boundId: p.bound._id,
              name: p.bound.name,
              page: p.page,
              box: p.box,
              ...(p.anchorFound !== undefined ? { anchorFound: p.anchorFound } : {}),
              text: page ? textInBox(page, p.box).text : '',
            };
          }),
      };
    }),
  };
}
