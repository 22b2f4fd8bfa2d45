import { describe, expect, it } from 'vitest';
import {
  amountAtStake,
  type BillCheck,
  billValidationReport,
  type CheckedBill,
  moneyRecovered,
} from '../../../shared/reports/bill-validation-report.ts';
import { reportCsv, reportXlsx } from '../../../shared/reports/report-files.ts';
import { reportPdf } from '../../../shared/reports/report-pdf.ts';
import { pdfPages, xlsxSheets } from '../../support/report-files.ts';

const check = (key: string, name: string, status: BillCheck['status'], difference?: number): BillCheck => ({
  key,
  name,
  status,
  ...(difference === undefined ? {} : { difference, unit: '£' }),
});

const passing = (): BillCheck[] => [
  check('total-matches', 'Total matches charges', 'passed'),
  check('unit-rate', 'Unit rate matches contract', 'passed'),
  check('duplicate', 'Not a duplicate', 'passed'),
];

const bills: CheckedBill[] = [
  {
    id: 'b1',
    site: 'Aldgate House',
    meter: 'Main electricity · 1200000000001',
    invoiceNumber: 'INV-1',
    billStart: '2025-01-01',
    billEnd: '2025-01-31',
    total: 1200,
    status: 'passed',
    checks: passing(),
    completed: true,
  },
  {
    id: 'b2',
    site: 'Aldgate House',
    meter: 'Main electricity · 1200000000001',
    invoiceNumber: 'INV-2',
    billStart: '2025-02-01',
    billEnd: '2025-02-28',
    total: 1500.5,
    // A wrong unit rate also makes the total disagree: the same £180.25 found twice.
    status: 'failed',
    checks: [
      check('total-matches', 'Total matches charges', 'failed', 180.25),
      check('unit-rate', 'Unit rate matches contract', 'failed', -180.25),
      check('duplicate', 'Not a duplicate', 'passed'),
    ],
    completed: false,
  },
  {
    id: 'b3',
    site: 'Temple Quay',
    meter: 'Gas',
    invoiceNumber: 'G-77',
    billStart: '2025-01-01',
    billEnd: '2025-03-31',
    total: 900,
    status: 'failed',
    checks: [
      check('total-matches', 'Total matches charges', 'passed'),
      check('unit-rate', 'Unit rate matches contract', 'skipped'),
      check('duplicate', 'Not a duplicate', 'failed', 900),
    ],
    completed: true,
  },
  {
    id: 'b4',
    site: 'Temple Quay',
    total: 300,
    status: 'warning',
    checks: [
      check('total-matches', 'Total matches charges', 'warning', 2),
      check('unit-rate', 'Unit rate matches contract', 'passed'),
      check('duplicate', 'Not a duplicate', 'passed'),
    ],
    completed: false,
  },
  { id: 'b5', total: 50, status: 'error', checks: [], completed: false },
];

const doc = billValidationReport({
  companyName: 'Acme Estates',
  scopeName: 'the whole company',
  dataDate: new Date('2025-03-31T00:00:00Z'),
  factorSets: [],
  period: { start: '2025-01-01', end: '2025-03-31' },
  bills,
});

describe('the bill validation report', () => {
  it('counts one overcharge found by two checks once', () => {
    expect(amountAtStake(bills[1] as CheckedBill)).toBe(180.25);
    // A warning puts no money at stake: only failed checks do.
    expect(amountAtStake(bills[3] as CheckedBill)).toBe(0);
  });

  it('writes the counts, the failed bills and the money at stake into the PDF', async () => {
    const { bytes } = await reportPdf(doc);
    const text = (await pdfPages(bytes)).join('\n');
    expect(text).toContain('Bill validation');
    expect(text).toMatch(/Bills checked\s+5/);
    expect(text).toMatch(/Passed\s+1/);
    expect(text).toMatch(/Passed with warnings\s+1/);
    expect(text).toMatch(/Failed\s+2/);
    expect(text).toMatch(/Could not be checked\s+1/);
    expect(text).toContain('£3,950.50');
    // 180.25 + 900 at stake; the closed one (Temple Quay's duplicate) is 900 of it.
    expect(text).toContain('£1,080.25');
    expect(text).toMatch(/Failed bills closed\s+1 \(£900\.00 at stake\)/);
    expect(text).toContain('INV-2');
    expect(text).toMatch(/INV-2\s+Unit rate matches contract\s+-180\.25/);
  });

  it('writes a sheet per table, with number cells: by check, failed bills, by site', () => {
    const sheets = xlsxSheets(reportXlsx(doc));
    expect([...sheets.keys()]).toEqual(['Checks', 'Failed bills', 'Failed checks', 'By site']);
    expect(sheets.get('Checks')?.slice(1)).toEqual([
      // Most failures first, then most warnings; passes, warnings, failures and checks not run per check.
      ['Total matches charges', 2, 1, 1, 0],
      ['Not a duplicate', 3, 0, 1, 0],
      ['Unit rate matches contract', 2, 0, 1, 1],
    ]);
    expect(sheets.get('Failed bills')?.slice(1)).toEqual([
      [
        'Aldgate House',
        'Main electricity · 1200000000001',
        'INV-2',
        '2025-02-01 – 2025-02-28',
        1500.5,
        180.25,
        0,
        2,
        'Open',
      ],
      ['Temple Quay', 'Gas', 'G-77', '2025-01-01 – 2025-03-31', 900, 900, 0, 1, 'Closed'],
      ['All failed bills', undefined, undefined, undefined, undefined, 1080.25, 0],
    ]);
    expect(sheets.get('Failed checks')?.slice(1)).toEqual([
      ['Aldgate House', 'INV-2', 'Total matches charges', 180.25, '£'],
      ['Aldgate House', 'INV-2', 'Unit rate matches contract', -180.25, '£'],
      ['Temple Quay', 'G-77', 'Not a duplicate', 900, '£'],
    ]);
    const bySite = sheets.get('By site') ?? [];
    expect(bySite.slice(1, 4)).toEqual([
      ['Aldgate House', 2, 1, 1, 0.5, 180.25],
      ['Temple Quay', 2, 1, 1, 0.5, 900],
      // A bill no meter was matched to is counted, under its own heading and last.
      ['No site matched', 1, 0, 0, 0, 0],
    ]);
    expect(bySite.at(-1)?.slice(0, 4)).toEqual(['All sites', 5, 2, 2]);
  });

  it('writes the same tables into the CSV', () => {
    const csv = new TextDecoder().decode(reportCsv(doc));
    expect(csv).toContain(
      'Results by check\r\nCheck,Passed,Warnings,Failed,Not run\r\nTotal matches charges,2,1,1,0\r\nNot a duplicate,3,0,1,0',
    );
    expect(csv).toContain('Bills checked by site\r\nSite,Checked,Passed,Failed,Failed share,At stake (£)');
    expect(csv).toContain('Temple Quay,2,1,1,0.5,900');
  });

  describe('money recovered', () => {
    const failed = (
      id: string,
      accountId: string,
      billStart: string,
      billEnd: string,
      stake: number,
    ): CheckedBill => ({
      id,
      accountId,
      billStart,
      billEnd,
      total: 1000,
      status: 'failed',
      checks: [check('total-matches', 'Total matches charges', 'failed', stake)],
      completed: false,
    });
    const feb = failed('feb', 'meter-1', '2025-02-01', '2025-02-28', 180.25);
    const mar = failed('mar', 'meter-1', '2025-03-01', '2025-03-31', 50);

    it('counts a credit note on the same meter for an overlapping period, up to the amount at stake', () => {
      const got = moneyRecovered(
        [feb, mar],
        [
          // Re-bills February whole: only the £180.25 at stake counts.
          { id: 'cn1', accountId: 'meter-1', billStart: '2025-02-01', billEnd: '2025-02-28', amount: 1000 },
          // Another meter's credit, and one for a period no failed bill covers: neither counts.
          { id: 'cn2', accountId: 'meter-2', billStart: '2025-03-01', billEnd: '2025-03-31', amount: 50 },
          { id: 'cn3', accountId: 'meter-1', billStart: '2025-06-01', billEnd: '2025-06-30', amount: 50 },
        ],
      );
      expect(Object.fromEntries(got)).toEqual({ feb: 180.25 });
    });

    it('gives each credit note out once, to the earliest bills first', () => {
      const got = moneyRecovered(
        [mar, feb],
        [{ id: 'cn', accountId: 'meter-1', billStart: '2025-02-15', billEnd: '2025-03-15', amount: 200 }],
      );
      expect(Object.fromEntries(got)).toEqual({ feb: 180.25, mar: 19.75 });
    });

    it('writes what was recovered beside what was at stake', async () => {
      const recovered = billValidationReport({
        companyName: 'Acme Estates',
        scopeName: 'the whole company',
        dataDate: new Date('2025-03-31T00:00:00Z'),
        factorSets: [],
        period: { start: '2025-01-01', end: '2025-03-31' },
        bills: [feb],
        creditNotes: [
          { id: 'cn', accountId: 'meter-1', billStart: '2025-02-01', billEnd: '2025-02-28', amount: 100 },
        ],
      });
      const text = (await pdfPages((await reportPdf(recovered)).bytes)).join('\n');
      expect(text).toMatch(/Recovered by credit notes\s+£100\.00/);
      expect(xlsxSheets(reportXlsx(recovered)).get('Failed bills')?.at(-1)?.slice(5, 7)).toEqual([
        180.25, 100,
      ]);
    });
  });
});
