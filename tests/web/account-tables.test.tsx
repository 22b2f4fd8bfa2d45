import { describe, expect, it } from 'vitest';
import type { ContractView } from '../../shared/schemas/account-contracts.ts';
import type { ReadingView } from '../../shared/schemas/account-readings.ts';
import { tableView } from '../../web/components/data-table.tsx';
import { toCsv } from '../../web/components/table-data.ts';
import { ContractsTable, contractColumns } from '../../web/features/accounts/account-contracts-page.tsx';
import {
  READINGS_SORT,
  ReadingsTable,
  readingColumns,
} from '../../web/features/accounts/account-readings-page.tsx';
import { renderHtml, textOf } from './render.tsx';

const noop = () => undefined;
const contractActions = {
  mayChange: true,
  onDownload: noop,
  onEdit: noop,
  onRates: noop,
  onToggle: noop,
  onDelete: noop,
};
const readingActions = { mayChange: true, onPhoto: noop, onEdit: noop, onDelete: noop };

function contract(
  id: string,
  name: string,
  startDate: string,
  endDate: string,
  extra: Partial<ContractView> = {},
) {
  return {
    _id: id,
    accountId: 'acc',
    name,
    startDate,
    endDate,
    status: 'active',
    isRenewable: false,
    rateTypes: [],
    file: null,
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    ...extra,
  } satisfies ContractView;
}

const contracts: ContractView[] = [
  contract('c1', 'EDF fixed 2025', '2025-04-01', '2027-03-31', {
    reference: 'EDF-77',
    isRenewable: true,
    rateTypes: [{ name: 'Day', kind: 'unit', rate: 0.25, unit: 'kWh' }],
    file: { name: 'edf.pdf', uploadedAt: '2025-03-01T00:00:00Z' },
  }),
  contract('c2', 'British Gas flex', '2023-12-31', '2025-03-31', { status: 'inactive' }),
];

function reading(id: string, date: string, value: number, extra: Partial<ReadingView> = {}): ReadingView {
  return {
    _id: id,
    accountId: 'acc',
    date,
    value,
    isEstimate: false,
    createdAt: `${date}T09:00:00Z`,
    ...extra,
  };
}

// In API order; 31/12/2023 reads after 05/01/2024 as text but comes first in time.
const readings: ReadingView[] = [
  reading('r1', '2023-12-31', 900, { unit: 'kWh' }),
  reading('r2', '2024-01-05', 1250.5, { unit: 'kWh', isEstimate: true, comment: 'Estimated, meter hidden' }),
  reading('r3', '2024-02-01', 80, { unit: 'kWh', hasPhoto: true }),
];

describe('an account’s contracts table', () => {
  it('shows each contract’s name, reference, period, status, rates, file and actions under sortable headers', () => {
    const html = renderHtml(<ContractsTable contracts={contracts} {...contractActions} />);
    const text = textOf(html);
    expect(text).toMatch(/^Name Period Status Rates File /);
    expect(text).toContain(
      'EDF fixed 2025 EDF-77 Renewable 01/04/2025 – 31/03/2027 Active Day 25 p/kWh edf.pdf Edit Rates Deactivate Delete',
    );
    expect(text).toContain(
      'British Gas flex 31/12/2023 – 31/03/2025 Inactive — — Edit Rates Activate Delete',
    );
    expect(html).toContain('aria-label="Download edf.pdf"');
    expect(html.match(/aria-sort="none"/g)).toHaveLength(6);
    expect(text).toContain('Download CSV');
  });

  it('tells the user when the account has no contracts', () => {
    const text = textOf(renderHtml(<ContractsTable contracts={[]} {...contractActions} />));
    expect(text).toContain('This account has no contracts yet.');
    expect(text).not.toContain('Download CSV');
  });

  it('sorts the period by its dates and exports the contracts as they read', () => {
    const columns = contractColumns(contractActions);
    const names = (key: string, direction: 'asc' | 'desc') =>
      tableView(contracts, columns, { key, direction }, 1, 25).rows.map((c) => c.name);
    expect(names('period', 'asc')).toEqual(['British Gas flex', 'EDF fixed 2025']);
    expect(names('name', 'asc')).toEqual(['British Gas flex', 'EDF fixed 2025']);
    expect(names('status', 'desc')).toEqual(['British Gas flex', 'EDF fixed 2025']);
    expect(toCsv(contracts, columns).split('\r\n')).toEqual([
      'Name,Period,Status,Rates,File',
      'EDF fixed 2025,01/04/2025 – 31/03/2027,Active,Day 25 p/kWh,edf.pdf',
      'British Gas flex,31/12/2023 – 31/03/2025,Inactive,,',
      '',
    ]);
  });

  it('offers no row actions to those who may only read the meter', () => {
    const text = textOf(
      renderHtml(<ContractsTable contracts={contracts} {...contractActions} mayChange={false} />),
    );
    expect(text).not.toMatch(/Edit|Delete|Deactivate/);
  });
});

describe('an account’s readings table', () => {
  it('lists the latest reading first, with the date header marked as sorted', () => {
    const html = renderHtml(<ReadingsTable readings={readings} {...readingActions} />);
    const text = textOf(html);
    expect(text).toMatch(/^Date ▼ Reading Estimate Comment Photo /);
    const days = [...text.matchAll(/\d\d\/\d\d\/\d{4}/g)].map((m) => m[0]);
    expect(days).toEqual(['01/02/2024', '05/01/2024', '31/12/2023']);
    expect(text).toContain('01/02/2024 80 kWh No View photo Edit Delete');
    expect(text).toContain('05/01/2024 1,250.5 kWh Yes Estimated, meter hidden — Edit Delete');
    expect(html).toContain('aria-sort="descending"');
    expect(text).toContain('Download CSV');
  });

  it('tells the user when no readings were submitted', () => {
    const text = textOf(renderHtml(<ReadingsTable readings={[]} {...readingActions} />));
    expect(text).toContain('No readings submitted yet.');
  });

  it('sorts dates by the day, not the text, and readings by their number, and exports them', () => {
    const columns = readingColumns(readingActions);
    const ids = (key: string, direction: 'asc' | 'desc') =>
      tableView(readings, columns, { key, direction }, 1, 25).rows.map((r) => r._id);
    expect(ids(READINGS_SORT.key, READINGS_SORT.direction)).toEqual(['r3', 'r2', 'r1']);
    expect(ids('date', 'asc')).toEqual(['r1', 'r2', 'r3']);
    expect(ids('value', 'asc')).toEqual(['r3', 'r1', 'r2']);
    expect(toCsv(readings, columns).split('\r\n')).toEqual([
      'Date,Reading,Estimate,Comment,Photo',
      '31/12/2023,900,No,,No',
      '05/01/2024,1250.5,Yes,"Estimated, meter hidden",No',
      '01/02/2024,80,No,,Yes',
      '',
    ]);
  });
});
