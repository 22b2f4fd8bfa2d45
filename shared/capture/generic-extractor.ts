import { isValidMprn } from '../domain/mprn.ts';
import type { UtilityType } from '../schemas/common.ts';
import { findRecipient, findSiteAddress } from './generic-address.ts';
import { chargeWithin, findCharges } from './generic-charges.ts';
import {
  ACCOUNT_NUMBER,
  DUE_DATE,
  GROSS_TOTAL,
  INVOICE_DATE,
  INVOICE_NUMBER,
  INVOICE_SPECS,
  METER_SPECS,
  NET_TOTAL,
  priceFinder,
  VAT_TOTAL,
} from './generic-fields.ts';
import {
  bestByKey,
  type Candidate,
  type FieldSpec,
  inBankDetails,
  keyValueCandidates,
  labelCandidates,
  type SearchScope,
  valuesOf,
} from './generic-labels.ts';
import { chargeValues, derived, meterSections, mpanOccurrences, readMeter } from './generic-meters.ts';
import { asMonthFirst, periodCandidates, writesMonthFirst } from './generic-period.ts';
import { findCurrency, findSupplierName } from './generic-supplier.ts';
import {
  chargesSum,
  checkTotals,
  doubtTotals,
  rateSums,
  reconcileTotals,
  statementSum,
} from './generic-totals.ts';
import type {
  ExtractedRate,
  ExtractedValue,
  ExtractedValues,
  InvoiceKey,
  SupplierClues,
  TotalsCheck,
} from './model.ts';
import type { PageDocument } from './pages.ts';
import { findSupplierClues } from './supplier-clues.ts';
import type { MeterRead } from './template-engine.ts';
import type { ExpenseAnalysis, ExpenseField } from './textract.ts';

/**
 * Reading an invoice no template knows: values by their labels, Textract's key-value pairs and
 * expense summary fields, meter points by their check digit, the period as a range of dates, charge
 * lines from tables or aligned rows; several meters when several MPANs are printed.
 */

export interface GenericRead {
  utilityType?: UtilityType;
  values: ExtractedValues;
  /** Lines that belong to no one meter. */
  rates: ExtractedRate[];
  /** One per meter; more than one on a multi-meter invoice. */
  meters: MeterRead[];
  totalsCheck?: TotalsCheck;
  supplierClues: SupplierClues;
}

const ALL_SPECS: readonly FieldSpec[] = [...INVOICE_SPECS, ...METER_SPECS];
const METER_KEYS: ReadonlySet<InvoiceKey> = new Set(METER_SPECS.map((s) => s.key));
const INVOICE_NUMBER_KEY: ReadonlySet<InvoiceKey> = new Set(['invoiceNumber']);
const NET_KEY: ReadonlySet<InvoiceKey> = new Set(['netTotal']);

const EXPENSE_FIELDS: Record<string, FieldSpec> = {
  INVOICE_RECEIPT_ID: INVOICE_NUMBER,
  INVOICE_RECEIPT_DATE: INVOICE_DATE,
  DUE_DATE,
  ACCOUNT_NUMBER,
  SUBTOTAL: NET_TOTAL,
  TAX: VAT_TOTAL,
  TOTAL: GROSS_TOTAL,
  AMOUNT_DUE: GROSS_TOTAL,
};

/** AnalyzeExpense summary fields on the invoice's pages, read as candidates of the fields they name. */
function expenseCandidates(
  expense: ExpenseAnalysis | undefined,
  doc: PageDocument,
  pages: readonly number[],
) {
  const candidates: Candidate[] = [];
  const wholeDocument = pages.length === doc.pageCount;
  for (const document of expense?.ExpenseDocuments ?? []) {
    for (const field of document.SummaryFields ?? []) {
      const spec = EXPENSE_FIELDS[field.Type?.Text ?? ''];
      const text = field.ValueDetection?.Text ?? '';
      const page = field.PageNumber;
      if (!spec || text === '' || (page === undefined ? !wholeDocument : !pages.includes(page))) continue;
      const where =
        field.LabelDetection?.Geometry?.BoundingBox ?? field.ValueDetection?.Geometry?.BoundingBox;
      const onPage = doc.pages[(page ?? pages[0] ?? 1) - 1];
      if (spec.key === 'accountNumber' && where && onPage && inBankDetails(onPage, { box: where })) continue;
      const parsed = (
        spec.key === 'netTotal' || spec.key === 'vatTotal' || spec.key === 'grossTotal'
          ? priceFinder
          : spec.find
      )(text);
      if (!parsed) continue;
      const box = field.ValueDetection?.Geometry?.BoundingBox;
      const value: ExtractedValue = {
        value: parsed.value,
        text: text.slice(parsed.start, parsed.end),
        ...(page !== undefined ? { page } : {}),
        ...(box ? { bbox: box } : {}),
        confidence: field.ValueDetection?.Confidence ?? field.Type?.Confidence ?? 50,
      };
      const score = field.Type?.Text === 'AMOUNT_DUE' ? 5 : 5.5;
      candidates.push({ key: spec.key, value, score, weak: false, page: page ?? 1, top: box?.Top ?? 0 });
    }
  }
  return candidates;
}

type Party = 'VENDOR' | 'RECEIVER';

/**
 * The party a summary field names: VENDOR_NAME and RECEIVER_NAME say it in their type; a grouped NAME
 * says it in its GroupProperties (VENDOR, VENDOR_SUPPLIER, VENDOR_REMIT_TO, RECEIVER_BILL_TO, ...).
 */
function nameOf(field: ExpenseField): { party: Party; grouped: boolean } | undefined {
  const type = field.Type?.Text;
  if (type === 'VENDOR_NAME') return { party: 'VENDOR', grouped: false };
  if (type === 'RECEIVER_NAME') return { party: 'RECEIVER', grouped: false };
  if (type !== 'NAME') return undefined;
  const types = (field.GroupProperties ?? []).flatMap((g) => g.Types ?? []);
  if (types.some((t) => t.startsWith('VENDOR'))) return { party: 'VENDOR', grouped: true };
  if (types.some((t) => t.startsWith('RECEIVER'))) return { party: 'RECEIVER', grouped: true };
  return undefined;
}

const sameName = (a: string, b: string) =>
  a.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase() === b.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase();

/** The names AnalyzeExpense reads for a party on the invoice's pages, flat fields before grouped ones. */
function expenseNames(expense: ExpenseAnalysis | undefined, pages: readonly number[], party: Party) {
  const names: { field: ExpenseField; text: string; grouped: boolean }[] = [];
  for (const document of expense?.ExpenseDocuments ?? []) {
    for (const field of document.SummaryFields ?? []) {
      const text = field.ValueDetection?.Text?.trim();
      const named = nameOf(field);
      if (!text || named?.party !== party) continue;
      if (field.PageNumber !== undefined && !pages.includes(field.PageNumber)) continue;
      names.push({ field, text, grouped: named.grouped });
    }
  }
  return names.sort((a, b) => Number(a.grouped) - Number(b.grouped));
}

/**
 * The vendor AnalyzeExpense reads on the invoice's pages, as VENDOR_NAME or as the NAME of a vendor
 * group, and whether it read it by a printed label (a LabelDetection: 'Supplier:'); one found without a
 * label comes from the letterhead or a logo. A name it also gives the receiver is not the vendor. Its
 * confidence is the value's: the type's says how sure the service is that the field is a vendor.
 */
function expenseVendor(
  expense: ExpenseAnalysis | undefined,
  pages: readonly number[],
): { value: ExtractedValue; labelled: boolean } | undefined {
  const receivers = expenseNames(expense, pages, 'RECEIVER').map((r) => r.text);
  for (const { field, text } of expenseNames(expense, pages, 'VENDOR')) {
    if (receivers.some((r) => sameName(r, text))) continue;
    const box = field.ValueDetection?.Geometry?.BoundingBox;
    const value: ExtractedValue = {
      value: text.replace(/\s+/g, ' '),
      text,
      ...(field.PageNumber !== undefined ? { page: field.PageNumber } : {}),
      ...(box ? { bbox: box } : {}),
      confidence: field.ValueDetection?.Confidence ?? field.Type?.Confidence ?? 50,
    };
    return { value, labelled: field.LabelDetection !== undefined };
  }
  return undefined;
}

/** The currency code AnalyzeExpense gives the amounts of the invoice's pages. */
function expenseCurrency(expense: ExpenseAnalysis | undefined, pages: readonly number[]) {
  for (const document of expense?.ExpenseDocuments ?? []) {
    for (const field of document.SummaryFields ?? []) {
      const code = field.Currency?.Code?.toUpperCase();
      if (!code || (field.PageNumber !== undefined && !pages.includes(field.PageNumber))) continue;
      const value: ExtractedValue = { value: code, text: code, confidence: 70 };
      return value;
    }
  }
  return undefined;
}

function detectUtility(doc: PageDocument, pages: readonly number[], mpan: boolean, mprn: boolean) {
  const text = pages.map((n) => doc.pages[n - 1]?.text ?? '').join('\n');
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const scores: [UtilityType, number][] = [
    [
      'electricity',
      (mpan ? 5 : 0) +
        count(/\belectric(?:ity)?\b|(?<![a-z])[ée]lectricit[ée]|\belektrizit[äa]t|\bstrom\b/gi) +
        0.5 * count(/\b(?:day|night)\s+units?\b|\bkva\b/gi),
    ],
    [
      'gas',
      (mprn ? 5 : 0) +
        count(/\bgas\b|\bgaz\b/gi) +
        2 * count(/calorific|correction\s*factor|volume\s*conversion/gi),
    ],
    ['water', count(/\bwater\b|\bsewerage\b|\bwastewater\b|\beau\b|\bwasser\b/gi)],
  ];
  const [type, score] = scores.sort((a, b) => b[1] - a[1])[0] ?? ['electricity', 0];
  if (score > 0) return type;
  return /kwh/i.test(text) ? 'electricity' : undefined;
}

/** The bill's own references, printed at its head: later pages restate them or list other accounts' bills. */
const HEADER_KEYS: ReadonlySet<InvoiceKey> = new Set([
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'accountNumber',
]);

/**
 * A reference the invoice's first page prints under a label is the invoice's own: the same label on a
 * later page (a collective bill's pages for each account it covers, with their own account numbers and
 * billing dates) is left out.
 */
function headersOfFirstPage(candidates: readonly Candidate[], first: number | undefined): Candidate[] {
  const onFirst = new Set(
    candidates.filter((c) => HEADER_KEYS.has(c.key) && c.page === first && !c.weak).map((c) => c.key),
  );
  return candidates.filter((c) => !onFirst.has(c.key) || c.page === first);
}

/** Reads one invoice (the given pages of the document) without a template. */
export function extractGeneric(
  doc: PageDocument,
  pages: readonly number[],
  expense?: ExpenseAnalysis,
): GenericRead {
  const scope: SearchScope = { doc, pages };
  const candidates = [
    ...labelCandidates(ALL_SPECS, scope),
    ...keyValueCandidates(ALL_SPECS, scope),
    ...expenseCandidates(expense, doc, pages),
  ];
  candidates.push(...rateSums(candidates));
  const statement = statementSum(scope);
  // The account summary stands in for the amount due only where no label names one; else it checks it.
  if (statement && !candidates.some((c) => c.key === 'grossTotal' && !c.weak)) candidates.push(statement);
  const best = bestByKey(
    headersOfFirstPage(
      candidates.filter((c) => INVOICE_SPECS.some((s) => s.key === c.key)),
      pages[0],
    ),
  );
  const charges = findCharges(doc, pages);
  const chargeTotal = chargesSum(charges);
  reconcileTotals(candidates, best, chargeTotal);
  const period = periodCandidates(doc, pages)[0];
  if (period) {
    if (period.start.score >= (best.get('startDate')?.score ?? 0)) best.set('startDate', period.start);
    if (period.end.score >= (best.get('endDate')?.score ?? 0)) best.set('endDate', period.end);
  }
  const values = valuesOf(best);
  if (writesMonthFirst(doc, pages)) {
    for (const key of ['invoiceDate', 'dueDate', 'startDate', 'endDate'] as const) {
      const date = values[key];
      if (date) values[key] = asMonthFirst(date);
    }
  }

  const currency = findCurrency(doc, pages) ?? expenseCurrency(expense, pages);
  const occurrences = mpanOccurrences(doc, pages);
  const cores = [...new Set(occurrences.map((o) => String(o.value.value)))];
  // A gas meter point is an MPRN; a European metering point says nothing of the fuel.
  const mprnFound = candidates.some(
    (c) => c.key === 'meterPointNumber' && isValidMprn(String(c.value.value)),
  );
  const utilityType = detectUtility(doc, pages, cores.length > 0, mprnFound && cores.length === 0);
  const utility: UtilityType = utilityType ?? 'electricity';
  const meters: MeterRead[] = [];
  let rates = charges;

  if (cores.length > 1) {
    const sections = meterSections(occurrences, pages);
    const claimed = new Set<ExtractedRate>();
    cores.forEach((core, index) => {
      const section = sections.get(core);
      if (!section) return;
      const inMeter = charges.filter((c) => chargeWithin(section.regions, c));
      for (const c of inMeter) claimed.add(c);
      const regionScope = { doc, pages, regions: section.regions };
      const meterCandidates = [
        ...labelCandidates(ALL_SPECS, regionScope, METER_KEYS),
        ...keyValueCandidates(METER_SPECS, regionScope),
      ];
      const read = readMeter(doc, regionScope, meterCandidates, section.at.value, inMeter, values.endDate);
      const net = bestByKey(labelCandidates(ALL_SPECS, regionScope, NET_KEY)).get('netTotal');
      meters.push({
        meterIndex: index,
        utilityType: utility,
        values: { ...read.values, ...chargeValues(inMeter), ...(net ? { netTotal: net.value } : {}) },
        rates: inMeter,
        readings: read.readings,
      });
    });
    rates = charges.filter((c) => !claimed.has(c));
    // A bill for several meters has no one meter point: each meter has its own.
    delete values.meterPointNumber;
    const consumptions = meters.map((m) => m.values.consumption?.value);
    if (!values.consumption && consumptions.every((c) => typeof c === 'number')) {
      const total = (consumptions as number[]).reduce((s, c) => s + c, 0);
      values.consumption = derived(total, consumptions.join(' + '), 80);
      const unit = meters[0]?.values.consumptionUnit;
      if (unit) values.consumptionUnit = unit;
    }
    const markers = meters.map((m) => m.values.isEstimate).filter((v) => v !== undefined);
    if (markers.length > 0) {
      const estimated = markers.find((m) => m.value === true);
      values.isEstimate = estimated ?? (markers[0] as ExtractedValue);
    }
  } else {
    const point = occurrences[0]?.value;
    const read = readMeter(doc, scope, candidates, point, charges, values.endDate);
    Object.assign(values, read.values);
    const serials = new Set(
      candidates.filter((c) => c.key === 'meterSerialNumber' && !c.weak).map((c) => String(c.value.value)),
    );
    if (
      !values.meterPointNumber &&
      utilityType === 'water' &&
      values.meterSerialNumber &&
      serials.size <= 1 &&
      (currency?.value ?? 'GBP') === 'GBP'
    ) {
      // British water supplies are known by their meter: the serial stands for the meter point. A bill
      // for several meters (water and gas on one municipal bill) does not say which supply is which,
      // and elsewhere (a city's water bill in dollars) a meter's number is only its serial.
      values.meterPointNumber = values.meterSerialNumber;
    }
    meters.push({
      meterIndex: 0,
      utilityType: utility,
      values: read.values,
      rates: [],
      readings: read.readings,
    });
  }

  Object.assign(values, chargeValues(charges));
  const firstPage = doc.pages[(pages[0] ?? 1) - 1];
  const recipient = firstPage ? findRecipient(firstPage) : undefined;
  if (recipient) values.recipient = recipient;
  const site = findSiteAddress(pages.map((n) => doc.pages[n - 1]).filter((p) => p !== undefined));
  if (site) values.siteAddress = site;
  const recipientName = typeof recipient?.value === 'string' ? recipient.value : undefined;
  const vendor = expenseVendor(expense, pages);
  // The names AnalyzeExpense reads for the receiver are never the supplier's, however the page prints them.
  const receivers = expenseNames(expense, pages, 'RECEIVER').map((r) => r.text);
  const supplier = findSupplierName(doc, pages, recipientName, receivers);
  // AnalyzeExpense's vendor stands when it read it by a label, or when the page gave no better name.
  const chosen = vendor && (vendor.labelled || !supplier) ? vendor.value : supplier;
  if (chosen) values.supplierName = chosen;
  if (currency) values.currency = currency;

  const totalsCheck = checkTotals(values, chargeTotal, statement);
  if (totalsCheck) doubtTotals(values, totalsCheck);
  return {
    ...(utilityType ? { utilityType } : {}),
    values,
    rates,
    meters,
    ...(totalsCheck ? { totalsCheck } : {}),
    supplierClues: findSupplierClues(doc, pages, expense),
  };
}

/**
 * The invoices of a document without a template: a page starts a new invoice when it carries an
 * invoice number label whose number differs from the invoice being read.
 */
export function splitGeneric(doc: PageDocument): number[][] {
  const groups: number[][] = [];
  let current: unknown;
  for (const page of doc.pages) {
    const found = labelCandidates(ALL_SPECS, { doc, pages: [page.number] }, INVOICE_NUMBER_KEY).find(
      (c) => !c.weak,
    );
    const number = found?.value.value;
    const last = groups[groups.length - 1];
    if (!last || (number !== undefined && current !== undefined && number !== current)) {
      groups.push([page.number]);
      current = number;
    } else {
      last.push(page.number);
      current ??= number;
    }
  }
  return groups.length > 0 ? groups : [[1]];
}
