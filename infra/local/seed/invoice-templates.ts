import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { putObject } from '../../../functions/core/adapters/s3.ts';
import { bucketName } from '../../../functions/core/config.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import {
  claimSlot,
  insertTemplate,
  releaseSlot,
  slotHolder,
} from '../../../functions/suppliers/template-repository.ts';
import type {
  InvoiceKey,
  RateColumn,
  SupplierRule,
  Template,
  TemplateBound,
  TemplatePages,
  TemplateRate,
  TemplateValue,
  TemplateValueType,
  VersionRule,
} from '../../../shared/capture/model.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import {
  KEY_TYPES,
  readinessProblems,
  referenceProblems,
  templateSamplePrefix,
  templateSchema,
} from '../../../shared/schemas/templates.ts';
import type { SupplierRef } from './plan-accounts.ts';

/**
 * Supplier invoice templates for the layouts of the demo suppliers' bills: British Gas Business
 * electricity (one meter, or several over two pages), EDF Energy gas and electricity, Thames Water.
 * Bounds were measured on the suppliers' digital bills and hang from the label printed beside or above
 * each value, so a scan that sits a little off still reads. Rows that a bill may lack (the levy on a
 * de minimis bill) are read with a pattern that needs their label, so they read nothing rather than a
 * neighbour when absent.
 */

type Box = readonly [left: number, top: number, width: number, height: number];
type Anchor = readonly [text: string, left: number, top: number];

interface ValueOptions {
  type?: TemplateValueType;
  format?: string;
  regex?: string;
  meterIndex?: number;
}

/** The lists of one template version, built bound by bound. */
class VersionBuilder {
  readonly versionId: string;
  readonly bounds: TemplateBound[] = [];
  readonly values: TemplateValue[] = [];
  readonly rates: TemplateRate[] = [];

  constructor(versionId: string) {
    this.versionId = versionId;
  }

  /** A bound where it was drawn on the sample; with an anchor, it moves with the anchor's text. */
  bound(name: string, page: number, [Left, Top, Width, Height]: Box, anchor?: Anchor): string {
    const _id = `${this.versionId}-b${this.bounds.length + 1}`;
    this.bounds.push({
      _id,
      versionId: this.versionId,
      name,
      page,
      Left,
      Top,
      Width,
      Height,
      ...(anchor ? { anchor: { text: anchor[0], left: anchor[1], top: anchor[2] } } : {}),
    });
    return _id;
  }

  value(key: InvoiceKey, boundId: string, options: ValueOptions = {}): void {
    this.values.push({
      _id: `${this.versionId}-v${this.values.length + 1}`,
      versionId: this.versionId,
      key,
      boundId,
      type: options.type ?? KEY_TYPES[key],
      ...(options.format ? { format: options.format } : {}),
      ...(options.regex ? { regex: options.regex } : {}),
      ...(options.meterIndex !== undefined ? { meterIndex: options.meterIndex } : {}),
    });
  }

  rate(
    boundId: string,
    columns: [RateColumn, number, number, string?][],
    skipRegex: string,
    meterIndex?: number,
  ): void {
    this.rates.push({
      _id: `${this.versionId}-r${this.rates.length + 1}`,
      versionId: this.versionId,
      boundId,
      columns: columns.map(([field, left, right, format]) => ({
        field,
        left,
        right,
        ...(format ? { format } : {}),
      })),
      skipRegex,
      ...(meterIndex !== undefined ? { meterIndex } : {}),
    });
  }
}

/** What a seeded template says, before it is given its supplier and id. */
interface TemplatePlan {
  supplier: string;
  type: UtilityType;
  name: string;
  /** The bill the bounds were measured on, one of the invoice fixtures. */
  sample: string;
  supplierRules: Omit<SupplierRule, '_id'>[];
  versions: {
    builder: VersionBuilder;
    name: string;
    rules: Omit<VersionRule, '_id' | 'versionId'>[];
    pages?: Omit<TemplatePages, 'versionId'>;
  }[];
}

/** Exactly one meter read in a column (a two-register meter has no single opening or closing read). */
const ONE_READ = String.raw`/^\s*(\d[\d,.]*)\s*\(?[AE]\)?(?![\s\S]*\d\s*\(?[AE]\)?(?:\s|$))/`;
/** Estimated when any read of the column is marked E, actual when marked A. */
const READ_MARKER = String.raw`/[\s\S]*(?:^|[\s(\d])(E)\)?(?=\s|$)|(?:^|[\s(\d])A\)?(?=\s|$)/`;
/**
 * The start of a pattern for the levy row, which a bill without the levy lacks: the row's label must be
 * in the bound, before or after its figures (a skewed scan can put them on a line of their own).
 */
const LEVY_ROW = String.raw`^(?=[\s\S]*Climate\s+Change\s+Levy)[\s\S]*?`;
const PERCENT = String.raw`(\d+(?:\.\d+)?)\s*%`;
const SKIP_TOTALS = String.raw`^\s*(?:charge\b|charges for|total|vat\b|your charges)`;

// ---------------------------------------------------------------- British Gas Business

const BGB_PRICE = '£0,000.00';
const BGB_DATE = 'DD/MM/YYYY';
const BGB_NUMBER = '0,000.00';

/** The facts box and bill summary at the top of page 1: the same on every British Gas bill. */
function britishGasHeader(v: VersionBuilder): void {
  const fact = (label: string, top: number) =>
    v.bound(label, 1, [0.72, top - 0.004, 0.25, 0.018], [label, 0.573, top]);
  v.value('invoiceNumber', fact('Invoice number', 0.118));
  v.value('invoiceDate', fact('Invoice date', 0.133), { format: BGB_DATE });
  v.value('accountNumber', fact('Account number', 0.148));
  const period = fact('Bill period', 0.164);
  v.value('startDate', period, { format: BGB_DATE });
  v.value('endDate', period, { format: BGB_DATE, regex: String.raw`to\s+(\S+)` });
  v.value('dueDate', fact('Payment due by', 0.179), { format: BGB_DATE });
  v.value('recipient', v.bound('Recipient', 1, [0.06, 0.135, 0.4, 0.016], ['PO Box', 0.173, 0.121]));
  // The summary panel moves down when the last bill's balance is shown: its labels carry the bounds.
  const summary = (label: string, top: number) =>
    v.bound(label, 1, [0.4, top - 0.005, 0.2, 0.02], [label, 0.091, top]);
  v.value('netTotal', summary('Charges for this bill', 0.282), { format: BGB_PRICE });
  const vat = summary('VAT at', 0.298);
  v.value('vatTotal', vat, { format: BGB_PRICE });
  v.value('vatRate', v.bound('VAT rate', 1, [0.085, 0.293, 0.12, 0.018], ['VAT at', 0.091, 0.298]), {
    regex: PERCENT,
  });
  v.value('grossTotal', summary('Total amount due', 0.318), { format: BGB_PRICE });
}

/** Where the parts of one meter's section are on the sample, and the text each hangs from. */
interface MeterSection {
  page: number;
  /** Set on a multi-meter bill. */
  meter?: number;
  serial: { box: Box; anchor: Anchor };
  /** The MPAN box's bottom row: the core (the top row holds profile class, MTC and LLF). */
  mpan: { top: number; anchor: Anchor };
  /** The first register row of the reads table, and its column headings (top and their left edges). */
  reads: { top: number; header: number; previous: number; present: number };
  standingTop: number;
  cclTop: number;
  /** First and last charge line. */
  charges: { top: number; bottom: number };
  /** The meter's own subtotal row (multi-meter bills). */
  subtotalTop?: number;
  /** The single unit line of a one-rate meter. */
  unitsTop?: number;
}

/** Serial, MPAN, reads, levy, standing charge and charge lines of one meter's section. */
function britishGasMeter(v: VersionBuilder, at: MeterSection): void {
  const { page, meter } = at;
  const m = meter === undefined ? {} : { meterIndex: meter };
  const tag = meter === undefined ? '' : ` (meter ${meter + 1})`;
  v.value('meterSerialNumber', v.bound(`Meter serial${tag}`, page, at.serial.box, at.serial.anchor), m);
  v.value(
    'meterPointNumber',
    v.bound(`MPAN core${tag}`, page, [0.73, at.mpan.top - 0.006, 0.22, 0.022], at.mpan.anchor),
    m,
  );
  const readsTop = at.reads.top - 0.006;
  const { header, previous, present } = at.reads;
  const opening = v.bound(
    `Previous reading${tag}`,
    page,
    [0.43, readsTop, 0.13, 0.04],
    ['Previous reading', previous, header],
  );
  const closing = v.bound(
    `Present reading${tag}`,
    page,
    [0.7, readsTop, 0.14, 0.04],
    ['Present reading', present, header],
  );
  v.value('openingRead', opening, { ...m, format: BGB_NUMBER, regex: ONE_READ });
  v.value('closingRead', closing, { ...m, format: BGB_NUMBER, regex: ONE_READ });
  v.value('isEstimate', closing, { ...m, regex: READ_MARKER });
  v.value(
    'standingCharge',
    v.bound(
      `Standing charge${tag}`,
      page,
      [0.83, at.standingTop - 0.005, 0.12, 0.02],
      ['Standing charge', 0.076, at.standingTop],
    ),
    { ...m, format: BGB_PRICE },
  );
  // The levy is charged on every kWh, so its quantity is the meter's consumption.
  const levy = v.bound(
    `Climate Change Levy${tag}`,
    page,
    [0.07, at.cclTop - 0.006, 0.88, 0.022],
    ['Climate Change Levy', 0.076, at.cclTop],
  );
  v.value('consumption', levy, { ...m, format: BGB_NUMBER, regex: String.raw`${LEVY_ROW}(\d[\d,]*)\s*kWh` });
  v.value('consumptionUnit', levy, { ...m, regex: String.raw`${LEVY_ROW}\d[\d,]*\s*(kWh)` });
  v.value('climateChangeLevy', levy, {
    ...m,
    format: BGB_PRICE,
    regex: String.raw`${LEVY_ROW}(£[\d,]+\.\d{2})(?![\d/])`,
  });
  if (at.unitsTop !== undefined) {
    v.value(
      'unitRate',
      v.bound(
        `Unit rate${tag}`,
        page,
        [0.69, at.unitsTop - 0.005, 0.14, 0.02],
        ['Units', 0.076, at.unitsTop],
      ),
      m,
    );
  }
  if (at.subtotalTop !== undefined && meter !== undefined) {
    v.value(
      'netTotal',
      v.bound(
        `Meter subtotal${tag}`,
        page,
        [0.83, at.subtotalTop - 0.005, 0.12, 0.02],
        [`Charges for meter ${meter + 1}`, 0.076, at.subtotalTop],
      ),
      { ...m, format: BGB_PRICE },
    );
  }
  const { top, bottom } = at.charges;
  const charges = v.bound(
    `Charges${tag}`,
    page,
    [0.07, top - 0.006, 0.88, bottom - top + 0.012],
    ['Your charges', 0.067, top - 0.038],
  );
  v.rate(
    charges,
    [
      ['description', 0.07, 0.27],
      ['startDate', 0.27, 0.5, BGB_DATE],
      ['units', 0.54, 0.68, BGB_NUMBER],
      ['unitRate', 0.68, 0.835],
      ['amount', 0.835, 0.95, BGB_PRICE],
    ],
    SKIP_TOTALS,
    meter,
  );
}

/**
 * A section of a multi-meter bill ("Meter 2 of 3"): serial, MPAN and reads under labels of their own,
 * which every section repeats; of several, the one nearest to where it was on the sample is taken.
 */
function multiSection(
  meter: number,
  page: number,
  headingTop: number,
  tops: { reads: number; charges: number; ccl: number; subtotal: number },
  columns: { previous: number; present: number },
  oneRate: boolean,
): MeterSection {
  const serialLabel = headingTop + 0.027;
  const mpanLabel = headingTop + 0.025;
  return {
    page,
    meter,
    serial: {
      box: [0.06, serialLabel + 0.008, 0.25, 0.018],
      anchor: ['Meter serial number', 0.067, serialLabel],
    },
    mpan: { top: mpanLabel + 0.033, anchor: ['Supply number (MPAN)', 0.685, mpanLabel] },
    reads: { top: tops.reads, header: tops.reads - 0.017, ...columns },
    standingTop: tops.ccl - 0.018,
    cclTop: tops.ccl,
    charges: { top: tops.charges, bottom: tops.ccl },
    subtotalTop: tops.subtotal,
    ...(oneRate ? { unitsTop: tops.charges } : {}),
  };
}

function britishGasElectricity(): TemplatePlan {
  const multi = new VersionBuilder('bgb-2026-multi');
  britishGasHeader(multi);
  const bill: Anchor = ['Bill total', 0.067, 0.691];
  const billTotal = multi.bound(
    'Bill total units',
    -1,
    [0.6, 0.785, 0.13, 0.02],
    ['Total charges (excluding VAT)', 0.076, 0.791],
  );
  multi.value('consumption', billTotal, { format: BGB_NUMBER });
  multi.value('consumptionUnit', multi.bound('Bill total unit', -1, [0.63, 0.713, 0.1, 0.018], bill), {
    regex: String.raw`\((kWh)\)`,
  });
  multi.value(
    'siteAddress',
    multi.bound('Site address', 1, [0.06, 0.366, 0.45, 0.046], ['Your site', 0.067, 0.348]),
  );
  britishGasMeter(
    multi,
    multiSection(
      0,
      1,
      0.443,
      { reads: 0.567, charges: 0.661, ccl: 0.716, subtotal: 0.734 },
      { previous: 0.438, present: 0.722 },
      false,
    ),
  );
  britishGasMeter(
    multi,
    multiSection(
      1,
      2,
      0.116,
      { reads: 0.24, charges: 0.316, ccl: 0.352, subtotal: 0.371 },
      { previous: 0.435, present: 0.721 },
      true,
    ),
  );
  britishGasMeter(
    multi,
    multiSection(
      2,
      2,
      0.404,
      { reads: 0.528, charges: 0.603, ccl: 0.64, subtotal: 0.659 },
      { previous: 0.435, present: 0.721 },
      true,
    ),
  );

  const single = new VersionBuilder('bgb-2026');
  britishGasHeader(single);
  single.value(
    'siteAddress',
    single.bound('Supply address', 1, [0.06, 0.4, 0.45, 0.058], ['Supply address', 0.067, 0.391]),
  );
  britishGasMeter(single, {
    page: 1,
    serial: { box: [0.175, 0.458, 0.25, 0.018], anchor: ['Meter serial number', 0.067, 0.463] },
    mpan: { top: 0.423, anchor: ['Supply number (MPAN)', 0.685, 0.389] },
    reads: { top: 0.523, header: 0.505, previous: 0.44, present: 0.723 },
    standingTop: 0.654,
    cclTop: 0.672,
    charges: { top: 0.617, bottom: 0.728 },
  });

  return {
    supplier: 'British Gas Business',
    type: 'electricity',
    sample: 'bgb-electricity-digital.pdf',
    name: 'British Gas Business electricity',
    supplierRules: [
      { type: 'contains', value: 'British Gas Business' },
      { type: 'regex', value: String.raw`684\s*9667\s*62` },
      { type: 'contains', value: 'Your electricity bill', page: 1 },
    ],
    versions: [
      // Listed first, the one-meter layout is also the one a bill matching neither rule is read with.
      {
        builder: single,
        name: '2026 one meter',
        rules: [{ type: 'contains', value: 'Supply address', page: 1 }],
      },
      {
        builder: multi,
        name: '2026 several meters',
        rules: [{ type: 'regex', value: String.raw`Meter\s+1\s+of\s+\d`, page: 1 }],
      },
    ],
  };
}

// ---------------------------------------------------------------- EDF Energy

const EDF_PRICE = '0,000.00';
const EDF_DATE = 'D MMMM YYYY';
const EDF_NUMBER = '0,000.00';
const EDF_SIDEBAR = 'Your account at a glance';

/** The sidebar ("Your account at a glance") of an EDF invoice's first page: labels over values. */
function edfSidebar(v: VersionBuilder, pointLabel: string): void {
  const under = (label: string, top: number, height = 0.015) =>
    v.bound(label, 1, [0.64, top + 0.007, 0.3, height], [label, 0.648, top]);
  v.value('accountNumber', under('Account number', 0.147));
  v.value('invoiceNumber', under('Invoice number', 0.176));
  v.value('invoiceDate', under('Tax point', 0.203), { format: EDF_DATE });
  // The period wraps onto a second line.
  const period = under('Invoice period', 0.232, 0.027);
  v.value('startDate', period, { format: EDF_DATE });
  v.value('endDate', period, { format: EDF_DATE, regex: String.raw`to\s+(\d{1,2}\s+[A-Za-z]+\s+\d{4})` });
  v.value('meterPointNumber', under(pointLabel, 0.273));
  v.value(
    'dueDate',
    v.bound('Payment due by', 1, [0.66, 0.362, 0.28, 0.016], ['Payment due by', 0.733, 0.355]),
    { format: EDF_DATE },
  );
  // The addressee has no label: the block under the band.
  v.value('recipient', v.bound('Recipient', 1, [0.06, 0.108, 0.5, 0.02]));
}

/** Levy, totals and VAT rows of the charges table on `page`, with their labels' positions there. */
function edfTotals(
  v: VersionBuilder,
  page: number,
  tops: { ccl: number; net: number; vat: number; gross: number },
) {
  const row = (label: string, top: number) =>
    v.bound(label, page, [0.8, top - 0.005, 0.16, 0.02], [label, 0.074, top]);
  v.value('netTotal', row('Total charges excluding VAT', tops.net), { format: EDF_PRICE });
  v.value('vatTotal', row('VAT at', tops.vat), { format: EDF_PRICE });
  v.value(
    'vatRate',
    v.bound('VAT rate', page, [0.07, tops.vat - 0.005, 0.12, 0.02], ['VAT at', 0.074, tops.vat]),
    {
      regex: PERCENT,
    },
  );
  v.value('grossTotal', row('Total amount due', tops.gross), { format: EDF_PRICE });
  v.value(
    'climateChangeLevy',
    v.bound(
      'Climate Change Levy',
      page,
      [0.07, tops.ccl - 0.007, 0.89, 0.024],
      ['Climate Change Levy', 0.074, tops.ccl],
    ),
    { format: EDF_PRICE, regex: String.raw`${LEVY_ROW}(?<![£\d.,])(\d{1,3}(?:,\d{3})*\.\d{2})(?![\d%])` },
  );
}

const EDF_COLUMNS: [RateColumn, number, number, string?][] = [
  ['description', 0.07, 0.4],
  ['units', 0.4, 0.64, EDF_NUMBER],
  ['unitRate', 0.64, 0.84],
  ['amount', 0.84, 0.96, EDF_PRICE],
];

const edfRules = (utility: 'gas' | 'electricity'): Omit<SupplierRule, '_id'>[] => [
  { type: 'contains', value: 'EDF Energy Customers Ltd' },
  { type: 'regex', value: String.raw`882\s*2578\s*04` },
  { type: 'contains', value: `Your ${utility} invoice`, page: 1 },
];

function edfGas(): TemplatePlan {
  const v = new VersionBuilder('edf-gas-2026');
  edfSidebar(v, 'Gas supply number (MPRN)');
  v.value(
    'siteAddress',
    v.bound('Supply address', 1, [0.06, 0.452, 0.4, 0.055], ['Supply address', 0.067, 0.444]),
  );
  v.value(
    'meterSerialNumber',
    v.bound('Meter serial number', 1, [0.48, 0.511, 0.25, 0.018], ['Meter serial number', 0.355, 0.516]),
  );
  const previous: Anchor = ['Previous read', 0.335, 0.572];
  const latest: Anchor = ['Latest read', 0.593, 0.572];
  v.value('openingRead', v.bound('Previous read', 1, [0.48, 0.584, 0.11, 0.022], previous), {
    format: EDF_NUMBER,
    regex: ONE_READ,
  });
  const closing = v.bound('Latest read', 1, [0.74, 0.584, 0.12, 0.022], latest);
  v.value('closingRead', closing, { format: EDF_NUMBER, regex: ONE_READ });
  v.value('isEstimate', closing, { regex: READ_MARKER });
  // Gas is billed in kWh: the volume read off the meter is converted on the "Gas used" line.
  const gasUsed: Anchor = ['Gas used', 0.074, 0.73];
  const used = v.bound('Gas used', 1, [0.4, 0.725, 0.13, 0.02], gasUsed);
  v.value('consumption', used, { format: EDF_NUMBER });
  v.value('consumptionUnit', used, { regex: '(kWh)' });
  v.value('unitRate', v.bound('Gas unit rate', 1, [0.6, 0.725, 0.2, 0.02], gasUsed));
  v.value(
    'standingCharge',
    v.bound('Standing charge', 1, [0.84, 0.744, 0.12, 0.02], ['Standing charge', 0.074, 0.749]),
    { format: EDF_PRICE },
  );
  edfTotals(v, 1, { ccl: 0.769, net: 0.789, vat: 0.807, gross: 0.827 });
  v.rate(
    v.bound('Charges', 1, [0.07, 0.722, 0.89, 0.118], ['Your charges', 0.079, 0.688]),
    EDF_COLUMNS,
    SKIP_TOTALS,
  );
  return {
    supplier: 'EDF Energy',
    type: 'gas',
    sample: 'edf-gas-digital.pdf',
    name: 'EDF Energy gas',
    supplierRules: edfRules('gas'),
    versions: [
      {
        builder: v,
        name: '2026',
        rules: [{ type: 'contains', value: EDF_SIDEBAR, page: 1 }],
        // Each invoice of a batch starts with the sidebar; a notes page after it has none.
        pages: { invoiceStartRule: { _id: 'edf-gas-start', type: 'contains', value: EDF_SIDEBAR } },
      },
    ],
  };
}

function edfElectricity(): TemplatePlan {
  const v = new VersionBuilder('edf-elec-2026');
  edfSidebar(v, 'Supply number (MPAN core)');
  // The MPAN box stands beside the address here, so the address bound stops short of it.
  v.value(
    'siteAddress',
    v.bound('Supply address', 1, [0.06, 0.452, 0.2, 0.055], ['Supply address', 0.067, 0.444]),
  );
  v.value(
    'meterSerialNumber',
    v.bound('Meter serial number', 1, [0.195, 0.516, 0.11, 0.018], ['Meter serial number', 0.067, 0.521]),
    { regex: String.raw`(\S+)` },
  );
  const opening = v.bound('Previous read', 1, [0.42, 0.589, 0.12, 0.022], ['Previous read', 0.26, 0.577]);
  const closing = v.bound('Latest read', 1, [0.7, 0.589, 0.14, 0.022], ['Latest read', 0.545, 0.577]);
  v.value('openingRead', opening, { format: EDF_NUMBER, regex: ONE_READ });
  v.value('closingRead', closing, { format: EDF_NUMBER, regex: ONE_READ });
  v.value('isEstimate', closing, { regex: READ_MARKER });
  const units = v.bound('Units used', 1, [0.84, 0.59, 0.12, 0.02], ['Units used', 0.874, 0.577]);
  v.value('consumption', units, { format: EDF_NUMBER });
  v.value('consumptionUnit', units, { regex: '(kWh)' });
  v.value(
    'standingCharge',
    v.bound('Standing charge', 1, [0.84, 0.842, 0.12, 0.02], ['Standing charge', 0.074, 0.847]),
    { format: EDF_PRICE },
  );
  // The charges table runs on to the last page, where the levy and the totals are.
  edfTotals(v, -1, { ccl: 0.303, net: 0.323, vat: 0.342, gross: 0.362 });
  v.rate(
    v.bound('Charges', 1, [0.07, 0.782, 0.89, 0.1], ['Your charges', 0.079, 0.748]),
    EDF_COLUMNS,
    SKIP_TOTALS,
  );
  v.rate(
    v.bound('Charges continued', 2, [0.07, 0.178, 0.89, 0.2], ['Your charges (continued)', 0.079, 0.145]),
    EDF_COLUMNS,
    SKIP_TOTALS,
  );
  return {
    supplier: 'EDF Energy',
    type: 'electricity',
    sample: 'edf-electricity-two-page.pdf',
    name: 'EDF Energy electricity',
    supplierRules: edfRules('electricity'),
    versions: [
      {
        builder: v,
        name: '2026',
        rules: [{ type: 'contains', value: EDF_SIDEBAR, page: 1 }],
        pages: { invoiceStartRule: { _id: 'edf-elec-start', type: 'contains', value: EDF_SIDEBAR } },
      },
    ],
  };
}

// ---------------------------------------------------------------- Thames Water

const TW_PRICE = '£0000.00';
const TW_DATE = 'DD MMM YYYY';
const TW_NUMBER = '0000.00';

function thamesWater(): TemplatePlan {
  const v = new VersionBuilder('tw-2026');
  const panel = (label: string, top: number) =>
    v.bound(label, 1, [0.74, top - 0.005, 0.21, 0.018], [label, 0.584, top]);
  v.value('invoiceDate', panel('Bill date', 0.133), { format: TW_DATE });
  v.value('invoiceNumber', panel('Bill number', 0.156));
  v.value('accountNumber', panel('Customer account no.', 0.179));
  const period = panel('Charges from', 0.202);
  v.value('startDate', period, { format: TW_DATE });
  v.value('endDate', period, { format: TW_DATE, regex: String.raw`to\s+(.+)` });
  v.value('dueDate', v.bound('Please pay', 1, [0.07, 0.809, 0.4, 0.018], ['Please pay', 0.076, 0.814]), {
    format: TW_DATE,
    regex: String.raw`by\s+(\d{1,2}\s+[A-Za-z]{3}\s+\d{4})`,
  });
  v.value(
    'recipient',
    v.bound('Recipient', 1, [0.055, 0.123, 0.45, 0.018], ['Business water and wastewater', 0.062, 0.054]),
  );
  v.value(
    'siteAddress',
    v.bound('Supply address', 1, [0.26, 0.29, 0.24, 0.034], ['Supply address', 0.062, 0.295]),
  );
  // Business water meters have no meter point number of their own: the serial stands for it.
  const serial = v.bound('Meter serial', 1, [0.7, 0.29, 0.25, 0.018], ['Meter serial', 0.507, 0.295]);
  v.value('meterSerialNumber', serial);
  v.value('meterPointNumber', serial);
  const opening = v.bound(
    'Previous reading',
    1,
    [0.43, 0.405, 0.09, 0.022],
    ['Previous reading', 0.412, 0.391],
  );
  const closing = v.bound('This reading', 1, [0.7, 0.405, 0.1, 0.022], ['This reading', 0.713, 0.391]);
  v.value('openingRead', opening, { format: TW_NUMBER, regex: ONE_READ });
  v.value('closingRead', closing, { format: TW_NUMBER, regex: ONE_READ });
  v.value('isEstimate', closing, { regex: READ_MARKER });
  const used: Anchor = ['Water used', 0.838, 0.391];
  v.value('consumption', v.bound('Water used', 1, [0.84, 0.405, 0.11, 0.022], used), { format: TW_NUMBER });
  v.value('consumptionUnit', v.bound('Water used unit', 1, [0.83, 0.386, 0.12, 0.018], used), {
    regex: String.raw`\((m³|m3)\)`,
  });
  const row = (label: string, top: number) =>
    v.bound(label, 1, [0.8, top - 0.005, 0.15, 0.02], [label, 0.071, top]);
  v.value('netTotal', row('Total charges', 0.718), { format: TW_PRICE });
  v.value('vatTotal', row('VAT @', 0.74), { format: TW_PRICE });
  v.value('vatRate', v.bound('VAT rate', 1, [0.065, 0.735, 0.12, 0.02], ['VAT @', 0.071, 0.74]), {
    regex: PERCENT,
  });
  v.value('grossTotal', row('Total amount due', 0.762), { format: TW_PRICE });
  // The "How we worked it out" column holds quantity and price in one sentence ("92 days at £0.3912 a
  // day"): the quantity is its first figure, the price its second.
  v.rate(
    v.bound('Charges', 1, [0.065, 0.508, 0.88, 0.2], ['Your charges', 0.062, 0.465]),
    [
      ['description', 0.065, 0.5],
      ['units', 0.505, 0.545, TW_NUMBER],
      ['unitRate', 0.575, 0.632],
      ['amount', 0.85, 0.95, TW_PRICE],
    ],
    SKIP_TOTALS,
  );
  return {
    supplier: 'Thames Water',
    type: 'water',
    sample: 'thames-water-digital.pdf',
    name: 'Thames Water business water',
    supplierRules: [
      { type: 'contains', value: 'Thames Water' },
      { type: 'regex', value: String.raw`business\s+water\s+and\s+wastewater`, page: 1 },
    ],
    versions: [
      {
        builder: v,
        name: '2026',
        rules: [{ type: 'contains', value: 'Your premises', page: 1 }],
      },
    ],
  };
}

/** The plans of every seeded template. */
function templatePlans(): TemplatePlan[] {
  return [britishGasElectricity(), edfGas(), edfElectricity(), thamesWater()];
}

const VERSION_CREATED = '2026-01-01T00:00:00.000Z';

/** A plan as a template of the given supplier, ids of its own lists kept stable. */
function templateOf(plan: TemplatePlan, supplierId: string, id: string = newId()): Template {
  return {
    _id: id,
    supplierId,
    type: plan.type,
    name: plan.name,
    status: 'ready',
    supplierRules: plan.supplierRules.map((r, i) => ({ ...r, _id: `supplier-rule-${i + 1}` })),
    versions: plan.versions.map((v) => ({
      _id: v.builder.versionId,
      name: v.name,
      createdAt: VERSION_CREATED,
    })),
    versionRules: plan.versions.flatMap((v) =>
      v.rules.map((r, i) => ({
        ...r,
        _id: `${v.builder.versionId}-rule-${i + 1}`,
        versionId: v.builder.versionId,
      })),
    ),
    pages: plan.versions.flatMap((v) => (v.pages ? [{ ...v.pages, versionId: v.builder.versionId }] : [])),
    bounds: plan.versions.flatMap((v) => v.builder.bounds),
    values: plan.versions.flatMap((v) => v.builder.values),
    rates: plan.versions.flatMap((v) => v.builder.rates),
  };
}

/**
 * Every seeded template with its sample's file name, for suppliers found by name (a plan whose supplier
 * is unknown is left out). Each is checked as the API would check it: one the editor would refuse fails.
 */
function plannedTemplates(supplierId: (name: string) => string | undefined) {
  const out: { template: Template; sample: string }[] = [];
  for (const plan of templatePlans()) {
    const id = supplierId(plan.supplier);
    if (!id) continue;
    const template = templateOf(plan, id);
    const parsed = templateSchema.safeParse(template);
    const problems = parsed.success
      ? { ...referenceProblems(template), ...readinessProblems(template) }
      : { [parsed.error.issues[0]?.path.join('.') ?? '_']: parsed.error.issues[0]?.message ?? 'invalid' };
    if (Object.keys(problems).length > 0) {
      throw new Error(`The ${plan.name} template is invalid: ${JSON.stringify(problems)}`);
    }
    out.push({ template, sample: plan.sample });
  }
  return out;
}

/** Every seeded template, for the suppliers found by name. */
export function invoiceTemplates(supplierId: (name: string) => string | undefined): Template[] {
  return plannedTemplates(supplierId).map((p) => p.template);
}

/** The supplier bills the templates were drawn on: the invoice fixtures, committed with the code. */
const SAMPLES_DIR = join(import.meta.dirname, '../../../tests/fixtures/invoices');

/**
 * Seeds the templates as global reference data, each with the bill it was drawn on uploaded as its
 * sample, so the template editor shows its bounds on it. Each takes its supplier's slot for its utility
 * as the API does; a slot already held (seeded before, or a template someone made) is left alone.
 */
export async function seedInvoiceTemplates(
  suppliers: readonly SupplierRef[],
  createdBy: string,
): Promise<number> {
  const ids = new Map(suppliers.map((s) => [s.name, s.id]));
  let count = 0;
  for (const { template, sample } of plannedTemplates((name) => ids.get(name))) {
    if (await slotHolder(template.supplierId, template.type)) continue;
    if (!(await claimSlot(template.supplierId, template.type, template._id))) continue;
    const sampleKey = `${templateSamplePrefix(template._id)}${newId()}/${sample}`;
    try {
      const bytes = new Uint8Array(await readFile(join(SAMPLES_DIR, sample)));
      await putObject(bucketName('uploads'), sampleKey, bytes, 'application/pdf');
      const at = new Date().toISOString();
      await insertTemplate({ ...template, sampleKey, createdAt: at, updatedAt: at, createdBy });
    } catch (err) {
      await releaseSlot(template.supplierId, template.type, template._id);
      throw err;
    }
    count++;
  }
  return count;
}
