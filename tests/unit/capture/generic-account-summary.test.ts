import { describe, expect, it } from 'vitest';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import { analysis, at, type Line, type PageSpec, row } from './blocks.ts';

/**
 * An electricity bill laid out as Kitchener-Wilmot Hydro prints it, read without a template: the
 * amount due on the payment stub beside a label printed over two lines, an account summary whose
 * balance forward and new charges make the amount due, and a sentence of prose under a payment label.
 */

const read = (...pages: PageSpec[]) =>
  extractGeneric(
    buildPages(analysis(pages)),
    pages.map((_p, i) => i + 1),
  );

/** The account summary of the bill's left column: each label over two lines, its figure beside them. */
const summary = (forward: string, fresh: string): Line[] => [
  at(0.055, 0.265, 'SUMMARY OF CHARGES AND CREDITS'),
  at(0.033, 0.276, 'Previous'),
  at(0.033, 0.289, 'Bill'),
  at(0.196, 0.2825, '65.76'),
  at(0.033, 0.298, 'Payments'),
  at(0.033, 0.311, 'Thank You'),
  at(0.196, 0.3045, '65.76CR'),
  at(0.033, 0.344, 'Balance'),
  at(0.033, 0.357, 'Forward'),
  at(0.216, 0.3505, forward),
  at(0.033, 0.367, 'New Charges'),
  at(0.033, 0.38, 'This Bill'),
  at(0.196, 0.3735, fresh),
];

/** The remittance stub: 'PAYABLE ON OR' over 'BEFORE DUE DATE', the amount beside them at mid-height. */
const stub = (amount: string): Line[] => [
  ...row(0.793, [0.673, 'BILLING DATE'], [0.85, 'DUE DATE']),
  ...row(0.816, [0.641, 'APR 23 2019'], [0.818, 'MAY 14 2019']),
  at(0.691, 0.846, 'PAYABLE ON OR'),
  at(0.691, 0.859, 'BEFORE DUE DATE'),
  at(0.882, 0.8525, amount),
];

describe('the amount due beside a label printed over two lines', () => {
  it('is read from the stub ("PAYABLE ON OR" / "BEFORE DUE DATE" $62.53)', () => {
    const { values } = read({ lines: stub('$62.53') });
    expect(values.grossTotal?.value).toBe(62.53);
  });
});

describe("a statement's account summary", () => {
  it('gives the amount due as the balance forward plus the new charges when no label names it', () => {
    const { values } = read({ lines: summary('.00', '62.53') });
    expect(values.grossTotal?.value).toBe(62.53);
  });

  it('takes a credit carried forward off the new charges', () => {
    const { values } = read({ lines: summary('5.74CR', '62.53') });
    expect(values.grossTotal?.value).toBe(56.79);
  });

  it('confirms the amount due on the stub', () => {
    const { values, totalsCheck } = read({ lines: [...summary('.00', '62.53'), ...stub('$62.53')] });
    expect(values.grossTotal?.value).toBe(62.53);
    expect(totalsCheck).toMatchObject({ balanceAdds: true, problems: [] });
  });

  it('puts an amount due it does not make in doubt', () => {
    const { values, totalsCheck } = read({ lines: [...summary('.00', '62.53'), ...stub('$65.76')] });
    expect(values.grossTotal?.value).toBe(65.76);
    expect(totalsCheck?.balanceAdds).toBe(false);
    expect(totalsCheck?.problems).toEqual([
      'The balance forward and new charges make 62.53, not the amount due 65.76',
    ]);
    expect(values.grossTotal?.confidence).toBeLessThan(70);
  });
});

describe('a payment label in a sentence of prose', () => {
  it('reads no amount due from the sentence under it', () => {
    const { values } = read({
      lines: [
        at(0.361, 0.391, 'Make paying bills a breeze.'),
        at(0.27, 0.402, 'Sign up for equal billing and/or pre-authorized payment.'),
        at(0.34, 0.413, 'Visit kwhydro.ca for more details.'),
        at(0.27, 0.425, "Ontario's Fair Hydro Plan saved you $26.89 on your bill. This includes the 8%"),
        at(0.27, 0.436, 'Provincial Rebate.'),
      ],
    });
    expect(values.grossTotal).toBeUndefined();
  });
});
