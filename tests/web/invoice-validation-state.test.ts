import { describe, expect, it } from 'vitest';
import { bulkMessage } from '../../web/features/invoices/api.ts';
import {
  allSelected,
  countChecks,
  cutDisplayName,
  keepVisible,
  lookOfCheck,
  lookOfValidation,
  outcomeLine,
  parseTags,
  queueCountKey,
  queueKey,
  queueOf,
  selectAll,
  sortChecks,
  toggleAll,
  toggleOne,
  validationBlockOf,
} from '../../web/features/invoices/validation-state.ts';

describe('the queues', () => {
  it('puts passed and warning in passed, failed and error in failed, while not completed', () => {
    expect(queueOf({ status: 'passed', completed: false })).toBe('passed');
    expect(queueOf({ status: 'warning' })).toBe('passed');
    expect(queueOf({ status: 'failed', completed: false })).toBe('failed');
    expect(queueOf({ status: 'error' })).toBe('failed');
    expect(queueOf({ status: 'pending' })).toBeUndefined();
    expect(queueOf({ status: 'failed', completed: true })).toBe('completed');
    expect(queueOf({ status: 'passed', completed: true })).toBe('completed');
  });

  it('asks for a page of 100 from the start, with the filters that are set', () => {
    const url = new URL(queueKey('failed', { supplierId: 's1', tags: ' ', hold: 'true' }), 'http://x');
    expect(url.pathname).toBe('/invoice-validation/queue');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      group: 'failed',
      limit: '100',
      skip: '0',
      supplierId: 's1',
      hold: 'true',
    });
    expect(new URL(queueKey('passed', {}, 3), 'http://x').searchParams.get('skip')).toBe('200');
  });

  it('counts a queue by selecting ids only, up to 100000', () => {
    const url = new URL(queueCountKey('completed', { assignedUserId: 'u1' }), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      group: 'completed',
      $select: '_id',
      limit: '100000',
      assignedUserId: 'u1',
    });
  });
});

describe('status icons and colours', () => {
  it('gives each validation status its own icon and colour', () => {
    const looks = ['pending', 'passed', 'warning', 'failed', 'error'].map(lookOfValidation);
    expect(looks.map((l) => l.label)).toEqual(['Pending', 'Passed', 'Warning', 'Failed', 'Error']);
    expect(new Set(looks.map((l) => l.icon)).size).toBe(5);
    expect(new Set(looks.map((l) => l.colour)).size).toBe(5);
    expect(lookOfValidation('passed').colour).toBe('green');
    expect(lookOfValidation('failed').colour).toBe('red');
  });

  it('shows a check the server names in a way it does not know yet as plain', () => {
    expect(lookOfCheck('skipped').icon).toBe('dash');
    expect(lookOfCheck('strange')).toEqual({ label: 'strange', colour: 'gray', icon: 'dash' });
  });
});

describe('display names', () => {
  it('cuts a validation name at 120 characters and adds an ellipsis', () => {
    const long = 'x'.repeat(121);
    expect(cutDisplayName(long)).toBe(`${'x'.repeat(120)}...`);
    expect(cutDisplayName('x'.repeat(120))).toBe('x'.repeat(120));
    expect(cutDisplayName('INV-1 · march.pdf')).toBe('INV-1 · march.pdf');
  });
});

describe('selection', () => {
  const items = [{ _id: 'a', completed: false }, { _id: 'b', completed: true }, { _id: 'c' }];

  it('selects all but the completed ones', () => {
    expect([...selectAll(items)]).toEqual(['a', 'c']);
    expect(allSelected(items, new Set(['a', 'c']))).toBe(true);
    expect(allSelected(items, new Set(['a']))).toBe(false);
    expect(allSelected([{ _id: 'b', completed: true }], new Set())).toBe(false);
  });

  it('toggles all on, then off', () => {
    const on = toggleAll(items, new Set(['a']));
    expect([...on].sort()).toEqual(['a', 'c']);
    expect(toggleAll(items, on).size).toBe(0);
  });

  it('toggles one, and keeps only the ids still listed', () => {
    expect([...toggleOne(new Set(['a']), 'c')]).toEqual(['a', 'c']);
    expect([...toggleOne(new Set(['a', 'c']), 'a')]).toEqual(['c']);
    expect([...keepVisible(new Set(['a', 'z']), items)]).toEqual(['a']);
  });

  it('reads tags typed with commas', () => {
    expect(parseTags(' gas , urgent,, gas ')).toEqual(['gas', 'urgent']);
  });
});

describe('a validation result', () => {
  const results = [
    { key: 'vatRate', group: 'tax', name: 'VAT rate', status: 'passed', reason: '20%' },
    { key: 'lines', group: 'arithmetic', name: 'Lines', status: 'failed', reason: 'off by £2' },
    { key: 'reads', group: 'reads', name: 'Estimated', status: 'skipped', reason: 'no reads' },
    { key: 'gap', group: 'continuity', name: 'Gap', status: 'warning', reason: '3 days' },
    { key: 'dup', group: 'duplicate', name: 'Duplicate', status: 'failed', reason: 'seen before' },
  ];

  it('lists checks worst first, in their own order within a status', () => {
    expect(sortChecks(results).map((r) => r.key)).toEqual(['lines', 'dup', 'gap', 'vatRate', 'reads']);
  });

  it('sums up a queue item: its reason, else how its checks came out', () => {
    expect(outcomeLine({ reason: 'No account matched the bill', summary: { failed: 0 } })).toBe(
      'No account matched the bill',
    );
    expect(outcomeLine({ summary: { passed: 12, warning: 1, failed: 2, skipped: 3 } })).toBe(
      '2 checks failed, 1 warning, 12 passed',
    );
    expect(outcomeLine({ summary: { passed: 0, warning: 0, failed: 0, skipped: 0 } })).toBe('');
    expect(outcomeLine({})).toBe('');
  });

  it('counts the checks by status', () => {
    expect(countChecks(results)).toEqual({ passed: 1, warning: 1, failed: 2, skipped: 1 });
  });

  it('gives an invoice with an account the account block, one without the block that asks for it', () => {
    expect(validationBlockOf({ accountId: 'a'.repeat(24) })).toBe('account');
    expect(validationBlockOf({})).toBe('no-account');
    expect(validationBlockOf({ accountId: null })).toBe('no-account');
  });
});

describe('a bulk action', () => {
  it('says how many invoices it changed, and why others were not', () => {
    expect(bulkMessage({ updated: 1 }, 'put on hold')).toBe('1 invoice put on hold.');
    expect(
      bulkMessage(
        {
          updated: 2,
          missing: ['x'],
          failed: [
            { id: 'a', message: 'The invoice has no account' },
            { id: 'b', message: 'The invoice has no account' },
          ],
        },
        'completed',
      ),
    ).toBe('2 invoices completed. 2 could not be: The invoice has no account. 1 no longer exists.');
  });
});
