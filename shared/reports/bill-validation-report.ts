import type { ReportBasics } from './report-builders.ts';
import { documentOf, longDate } from './report-builders.ts';
import {
  formatNumber,
  type ReportCell,
  type ReportColumn,
  type ReportDocument,
  type ReportTable,
} from './report-document.ts';

export type CheckedBillStatus = 'passed' | 'warning' | 'failed' | 'error';
export type BillCheckStatus = 'passed' | 'warning' | 'failed' | 'skipped';

/** One check's verdict on a bill, as validation stored it. */
export interface BillCheck {
  key: string;
  name: string;
  status: BillCheckStatus;
  /** actual - expected, in `unit` */
  difference?: number;
  unit?: string;
}

/** A bill the checks judged in the period. */
export interface CheckedBill {
  id: string;
  /** The site of the bill's meter; undefined when no meter was matched. */
  site?: string;
  meter?: string;
  invoiceNumber?: string;
  billStart?: string;
  billEnd?: string;
  /** The bill's total in pounds. */
  total?: number;
  status: CheckedBillStatus;
  checks: readonly BillCheck[];
  /** Someone has dealt with it and closed it. */
  completed: boolean;
  /** The meter's account, which credit notes are matched by. */
  accountId?: string;
}

/** A credit note the supplier issued on one of the scope's meters, at any date. */
export interface CreditNote {
  id: string;
  accountId: string;
  billStart?: string;
  billEnd?: string;
  /** What it credits, in pounds, as a positive number. */
  amount: number;
}

export interface BillValidationInput extends ReportBasics {
  period: { start: string; end: string };
  bills: readonly CheckedBill[];
  creditNotes?: readonly CreditNote[];
}

const NO_SITE = 'No site matched';

/**
 * The money a failed bill puts at stake: the largest pound difference among its failed checks. The largest,
 * not the sum, because two checks often find the same overcharge (a wrong unit rate also makes the total
 * disagree), and counting it twice would overstate what can be queried.
 */
export function amountAtStake(bill: CheckedBill): number {
  let most = 0;
  for (const c of bill.checks)
    if (c.status === 'failed' && c.unit === '£' && typeof c.difference === 'number')
      most = Math.max(most, Math.abs(c.difference));
  return Math.round(most * 100) / 100;
}

const overlaps = (bill: CheckedBill, note: CreditNote) =>
  bill.billStart !== undefined &&
  bill.billEnd !== undefined &&
  note.billStart !== undefined &&
  note.billEnd !== undefined &&
  note.billStart <= bill.billEnd &&
  note.billEnd >= bill.billStart;

/**
 * What the supplier gave back on each failed bill: credit notes on the same meter for a period that overlaps
 * the bill's, up to the amount at stake. A supplier corrects an overcharge by crediting the period it billed
 * wrongly; a credit larger than the stake (a re-bill credits the whole bill) counts only the stake, and each
 * credit note's pounds are given out once, to the earliest bills first.
 */
export function moneyRecovered(
  failed: readonly CheckedBill[],
  creditNotes: readonly CreditNote[],
): Map<string, number> {
  const out = new Map<string, number>();
  const left = new Map(creditNotes.map((n) => [n.id, Math.abs(n.amount)]));
  const ordered = [...failed].sort(
    (a, b) => (a.billStart ?? '').localeCompare(b.billStart ?? '') || a.id.localeCompare(b.id),
  );
  for (const bill of ordered) {
    let owed = amountAtStake(bill);
    let got = 0;
    for (const note of creditNotes) {
      if (owed <= 0) break;
      if (!bill.accountId || note.accountId !== bill.accountId || !overlaps(bill, note)) continue;
      const take = Math.min(owed, left.get(note.id) ?? 0);
      left.set(note.id, (left.get(note.id) ?? 0) - take);
      owed -= take;
      got += take;
    }
    if (got > 0) out.set(bill.id, Math.round(got * 100) / 100);
  }
  return out;
}

const failedChecks = (bill: CheckedBill) => bill.checks.filter((c) => c.status === 'failed');
const siteOf = (bill: CheckedBill) => bill.site ?? NO_SITE;
const money = (v: number) => `£${formatNumber(v, 2)}`;

const textColumn = (header: string, width: number): ReportColumn => ({ header, format: 'text', width });
/** Numbers with `places` decimals: 0 for counts, 2 for pounds. Of the width of 1 unless given. */
const numberColumn = (header: string, places: 0 | 2, width?: number): ReportColumn => ({
  header,
  format: 'number',
  places,
  ...(width === undefined ? {} : { width }),
});

interface CheckTally {
  name: string;
  passed: number;
  warning: number;
  failed: number;
  skipped: number;
}

function checkTable(bills: readonly CheckedBill[]): { table: ReportTable; tallies: CheckTally[] } {
  const byKey = new Map<string, CheckTally>();
  for (const bill of bills)
    for (const c of bill.checks) {
      const t = byKey.get(c.key) ?? { name: c.name, passed: 0, warning: 0, failed: 0, skipped: 0 };
      t[c.status] += 1;
      byKey.set(c.key, t);
    }
  const tallies = [...byKey.values()].sort(
    (a, b) => b.failed - a.failed || b.warning - a.warning || a.name.localeCompare(b.name),
  );
  return {
    tallies,
    table: {
      name: 'Checks',
      title: 'Results by check',
      columns: [
        textColumn('Check', 2.4),
        numberColumn('Passed', 0),
        numberColumn('Warnings', 0),
        numberColumn('Failed', 0),
        numberColumn('Not run', 0),
      ],
      rows: tallies.map((t) => [t.name, t.passed, t.warning, t.failed, t.skipped]),
    },
  };
}

const byBill = (a: CheckedBill, b: CheckedBill) =>
  siteOf(a).localeCompare(siteOf(b)) ||
  amountAtStake(b) - amountAtStake(a) ||
  (a.invoiceNumber ?? '').localeCompare(b.invoiceNumber ?? '') ||
  a.id.localeCompare(b.id);

function failedTable(failed: readonly CheckedBill[], recovered: ReadonlyMap<string, number>): ReportTable {
  const rows = [...failed]
    .sort(byBill)
    .map((b): ReportCell[] => [
      siteOf(b),
      b.meter ?? '',
      b.invoiceNumber ?? '',
      b.billStart && b.billEnd ? `${b.billStart} – ${b.billEnd}` : '',
      b.total ?? null,
      amountAtStake(b),
      recovered.get(b.id) ?? 0,
      failedChecks(b).length,
      b.completed ? 'Closed' : 'Open',
    ]);
  const stake = failed.reduce((s, b) => s + amountAtStake(b), 0);
  const back = failed.reduce((s, b) => s + (recovered.get(b.id) ?? 0), 0);
  return {
    name: 'Failed bills',
    title: 'Failed bills',
    columns: [
      textColumn('Site', 1.4),
      textColumn('Meter', 1.4),
      textColumn('Invoice', 0.8),
      textColumn('Bill period', 1.7),
      numberColumn('Total (£)', 2, 0.8),
      numberColumn('At stake (£)', 2, 0.9),
      numberColumn('Recovered (£)', 2, 0.9),
      numberColumn('Checks failed', 0, 0.9),
      textColumn('State', 0.6),
    ],
    rows,
    total: [
      'All failed bills',
      '',
      '',
      '',
      null,
      Math.round(stake * 100) / 100,
      Math.round(back * 100) / 100,
      null,
      '',
    ],
  };
}

/** Each failed check of each failed bill, with the difference it found. */
function failedCheckTable(failed: readonly CheckedBill[]): ReportTable {
  const rows = [...failed]
    .sort(byBill)
    .flatMap((b) =>
      failedChecks(b).map((c): ReportCell[] => [
        siteOf(b),
        b.invoiceNumber ?? '',
        c.name,
        typeof c.difference === 'number' ? c.difference : null,
        c.unit ?? '',
      ]),
    );
  return {
    name: 'Failed checks',
    title: 'The failed checks of each bill',
    columns: [
      textColumn('Site', 1.4),
      textColumn('Invoice', 0.9),
      textColumn('Check', 2.6),
      numberColumn('Difference', 2, 0.9),
      textColumn('Unit', 0.5),
    ],
    rows,
  };
}

function siteTable(bills: readonly CheckedBill[]): ReportTable {
  const bySite = new Map<string, { checked: number; passed: number; failed: number; stake: number }>();
  for (const b of bills) {
    const row = bySite.get(siteOf(b)) ?? { checked: 0, passed: 0, failed: 0, stake: 0 };
    row.checked += 1;
    if (b.status === 'passed' || b.status === 'warning') row.passed += 1;
    if (b.status === 'failed') {
      row.failed += 1;
      row.stake += amountAtStake(b);
    }
    bySite.set(siteOf(b), row);
  }
  const rows = [...bySite.entries()]
    .sort(([a], [b]) => (a === NO_SITE ? 1 : b === NO_SITE ? -1 : a.localeCompare(b)))
    .map(([site, r]): ReportCell[] => [
      site,
      r.checked,
      r.passed,
      r.failed,
      r.checked === 0 ? null : r.failed / r.checked,
      Math.round(r.stake * 100) / 100,
    ]);
  const all = [...bySite.values()].reduce(
    (s, r) => ({
      checked: s.checked + r.checked,
      passed: s.passed + r.passed,
      failed: s.failed + r.failed,
      stake: s.stake + r.stake,
    }),
    { checked: 0, passed: 0, failed: 0, stake: 0 },
  );
  return {
    name: 'By site',
    title: 'Bills checked by site',
    columns: [
      textColumn('Site', 2),
      numberColumn('Checked', 0),
      numberColumn('Passed', 0),
      numberColumn('Failed', 0),
      { header: 'Failed share', format: 'percent', places: 1 },
      numberColumn('At stake (£)', 2),
    ],
    rows,
    total: [
      'All sites',
      all.checked,
      all.passed,
      all.failed,
      all.checked === 0 ? null : all.failed / all.checked,
      Math.round(all.stake * 100) / 100,
    ],
  };
}

/**
 * The bills the checks judged in a period: how many passed and failed, each check's results, every failed
 * bill with its failed checks and the money at stake, and the same by site.
 */
export function billValidationReport(input: BillValidationInput): ReportDocument {
  const bills = input.bills;
  const count = (s: CheckedBillStatus) => bills.filter((b) => b.status === s).length;
  const failed = bills.filter((b) => b.status === 'failed');
  const stake = failed.reduce((s, b) => s + amountAtStake(b), 0);
  const billed = bills.reduce((s, b) => s + (b.total ?? 0), 0);
  const closed = failed.filter((b) => b.completed);
  const closedStake = closed.reduce((s, b) => s + amountAtStake(b), 0);
  const recovered = moneyRecovered(failed, input.creditNotes ?? []);
  const recoveredTotal = [...recovered.values()].reduce((s, v) => s + v, 0);
  const { table: checks, tallies } = checkTable(bills);
  const flaggedChecks = tallies.filter((t) => t.failed > 0).slice(0, 12);
  const periodText = `${longDate(input.period.start)} to ${longDate(input.period.end)}`;
  return documentOf(input, { title: 'Bill validation', subtitle: input.scopeName, periodLabel: periodText }, [
    {
      heading: 'Summary',
      blocks: [
        {
          kind: 'paragraph',
          text: `The bills of ${input.scopeName} the checks judged from ${periodText}: how many passed and failed, which checks failed, and the money the failed bills put at stake and what credit notes recovered of it.`,
        },
        {
          kind: 'figures',
          items: [
            { label: 'Bills checked', value: formatNumber(bills.length) },
            { label: 'Passed', value: formatNumber(count('passed')) },
            { label: 'Passed with warnings', value: formatNumber(count('warning')) },
            { label: 'Failed', value: formatNumber(failed.length) },
            { label: 'Could not be checked', value: formatNumber(count('error')) },
            { label: 'Value of bills checked', value: money(billed) },
            { label: 'Amount at stake on failed bills', value: money(stake) },
            { label: 'Recovered by credit notes', value: money(recoveredTotal) },
            {
              label: 'Failed bills closed',
              value: `${formatNumber(closed.length)} (${money(closedStake)} at stake)`,
            },
          ],
        },
        ...(flaggedChecks.length > 0
          ? [
              {
                kind: 'chart' as const,
                chart: {
                  title: 'Bills failed by check',
                  unit: 'bills',
                  series: ['Failed', 'Passed'],
                  bars: flaggedChecks.map((t) => ({ label: t.name, values: [t.failed, t.passed] })),
                },
              },
            ]
          : []),
      ],
    },
    { heading: 'Results by check', blocks: [{ kind: 'table', table: checks }] },
    {
      heading: 'Failed bills',
      blocks: [
        {
          kind: 'paragraph',
          text: "At stake is the largest pound difference among the failed checks of a bill: two checks that find the same overcharge count it once. Recovered is what credit notes on the same meter, for a period that overlaps the bill's, gave back, up to the amount at stake; each credit note is counted once.",
        },
        { kind: 'table', table: failedTable(failed, recovered) },
        { kind: 'table', table: failedCheckTable(failed) },
      ],
    },
    { heading: 'By site', blocks: [{ kind: 'table', table: siteTable(bills) }] },
  ]);
}
