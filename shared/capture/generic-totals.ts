import { BALANCE_FORWARD, NEW_CHARGES } from './generic-fields.ts';
import { bestByKey, type Candidate, labelCandidates, type SearchScope } from './generic-labels.ts';
import type { ExtractedRate, ExtractedValues, InvoiceKey, TotalsCheck } from './model.ts';

/**
 * The totals of an invoice read without a template, checked against each other: net + tax = total, and
 * the charges table adds up to the net or the total. Agreement chooses between candidates; a total
 * that agrees with nothing is read with less confidence and the invoice says what does not add up.
 */

/** Pennies lost to rounding on each side of a sum. */
const agrees = (a: number, b: number) => Math.abs(a - b) <= 0.011 + Math.abs(b) * 0.0005;

const money = (n: number) => n.toFixed(2);

/** The sum of the charge lines, when there are at least two to add (one line says nothing). */
export function chargesSum(charges: readonly ExtractedRate[]): number | undefined {
  const amounts = charges
    .filter((c) => c.kind !== 'vat' && typeof c.amount === 'number')
    .map((c) => c.amount as number);
  if (amounts.length < 2) return undefined;
  return Math.round(amounts.reduce((s, a) => s + a, 0) * 100) / 100;
}

function topDistinct(candidates: readonly Candidate[], key: InvoiceKey): Candidate[] {
  const seen = new Set<unknown>();
  return candidates
    .filter((c) => c.key === key && typeof c.value.value === 'number')
    .sort((a, b) => b.score - a.score)
    .filter((c) => !seen.has(c.value.value) && seen.add(c.value.value))
    .slice(0, 4);
}

const num = (c: Candidate | undefined) => (typeof c?.value.value === 'number' ? c.value.value : undefined);

const TOTAL_KEYS = ['netTotal', 'vatTotal', 'grossTotal'] as const;

/**
 * A total printed once per tax rate ('MwSt. 7% … 7,00' and 'MwSt. 19% … 38,00'; 'Total incl. VAT 5%'
 * and '… 20%'): the rows of distinct rates added up, as one more candidate of the field. It is placed
 * just above its best row, so that net + tax = total, checked next, decides between the sum and a row.
 */
export function rateSums(candidates: readonly Candidate[]): Candidate[] {
  const sums: Candidate[] = [];
  for (const key of TOTAL_KEYS) {
    const byRate = new Map<number, Candidate>();
    for (const c of candidates) {
      if (c.key !== key || c.rate === undefined || c.weak || typeof c.value.value !== 'number') continue;
      const current = byRate.get(c.rate);
      if (!current || c.score > current.score) byRate.set(c.rate, c);
    }
    const parts = [...byRate.values()].sort((a, b) => a.page - b.page || a.top - b.top);
    const first = parts[0];
    if (!first || parts.length < 2) continue;
    // Rows of one table: two rates read from one row are one figure read twice.
    if (new Set(parts.map((p) => `${p.page}:${p.top.toFixed(3)}`)).size < parts.length) continue;
    const sum = Math.round(parts.reduce((s, p) => s + (num(p) ?? 0), 0) * 100) / 100;
    sums.push({
      key,
      value: {
        value: sum,
        text: parts.map((p) => p.value.text).join(' + '),
        ...(first.value.page !== undefined ? { page: first.value.page } : {}),
        confidence: Math.min(...parts.map((p) => p.value.confidence)),
      },
      label: parts.map((p) => p.label ?? '').join(' + '),
      score: Math.max(...parts.map((p) => p.score)) + 0.5,
      weak: false,
      page: first.page,
      top: first.top,
    });
  }
  return sums;
}

/**
 * Chooses net, tax and total among their candidates. Net + VAT = total, when some choice of them adds
 * up, beats the individually best ones. Else a total that the charges add up to (alone or with the
 * tax) beats a total they do not, unless it was found by a much weaker label (a label of the
 * amount due beside its value against a bare heading far from it).
 */
export function reconcileTotals(
  candidates: readonly Candidate[],
  best: Map<InvoiceKey, Candidate>,
  charges?: number,
): void {
  let chosen: { score: number; set: Candidate[] } | undefined;
  for (const net of topDistinct(candidates, 'netTotal')) {
    for (const vat of topDistinct(candidates, 'vatTotal')) {
      for (const gross of topDistinct(candidates, 'grossTotal')) {
        if (!agrees((num(net) ?? 0) + (num(vat) ?? 0), num(gross) ?? Number.NaN)) continue;
        const score = net.score + vat.score + gross.score;
        if (!chosen || score > chosen.score) chosen = { score, set: [net, vat, gross] };
      }
    }
  }
  if (chosen) {
    for (const c of chosen.set) best.set(c.key, c);
    return;
  }
  if (charges === undefined) return;
  const current = best.get('grossTotal');
  const vat = num(best.get('vatTotal'));
  const addsUp = (c: Candidate) => {
    const value = num(c) ?? Number.NaN;
    return agrees(charges, value) || (vat !== undefined && agrees(charges + vat, value));
  };
  if (!current || addsUp(current)) return;
  const agreeing = topDistinct(candidates, 'grossTotal').find(addsUp);
  if (agreeing && agreeing.score >= current.score - 2.5) best.set('grossTotal', agreeing);
}

const FORWARD_SPECS = [BALANCE_FORWARD];
const NEW_CHARGES_SPECS = [NEW_CHARGES];

/** As a total found by a label that names it: above a bare 'Total'. */
const STATEMENT_SCORE = 4.5;

/**
 * The amount a statement asks for, from its account summary: the balance carried forward plus this
 * bill's new charges, each read by its own label. The amount due where no label names one, and a
 * check of the one a label names.
 */
export function statementSum(scope: SearchScope): Candidate | undefined {
  const forward = bestByKey(labelCandidates(FORWARD_SPECS, scope)).get('grossTotal');
  const fresh = bestByKey(labelCandidates(NEW_CHARGES_SPECS, scope)).get('grossTotal');
  const a = num(forward);
  const b = num(fresh);
  if (!forward || !fresh || a === undefined || b === undefined || forward.weak || fresh.weak)
    return undefined;
  return {
    key: 'grossTotal',
    value: {
      value: Math.round((a + b) * 100) / 100,
      text: `${forward.value.text} + ${fresh.value.text}`,
      ...(fresh.value.page !== undefined ? { page: fresh.value.page } : {}),
      confidence: Math.min(forward.value.confidence, fresh.value.confidence),
    },
    label: `${forward.label ?? ''} + ${fresh.label ?? ''}`,
    score: STATEMENT_SCORE,
    weak: false,
    page: fresh.page,
    top: fresh.top,
  };
}

/** What adds up among the totals read, and what does not; undefined when there is nothing to check. */
export function checkTotals(
  values: ExtractedValues,
  charges?: number,
  statement?: Candidate,
): TotalsCheck | undefined {
  const gross = typeof values.grossTotal?.value === 'number' ? values.grossTotal.value : undefined;
  const net = typeof values.netTotal?.value === 'number' ? values.netTotal.value : undefined;
  const vat = typeof values.vatTotal?.value === 'number' ? values.vatTotal.value : undefined;
  const check: TotalsCheck = { problems: [] };
  if (gross !== undefined && net !== undefined && vat !== undefined) {
    check.taxAdds = agrees(net + vat, gross);
    if (!check.taxAdds)
      check.problems.push(
        `Net ${money(net)} + tax ${money(vat)} is ${money(net + vat)}, not the total ${money(gross)}`,
      );
  }
  const targets = [net, gross, gross !== undefined && vat !== undefined ? gross - vat : undefined].filter(
    (t) => t !== undefined,
  );
  // Charges far from every total were not read as the invoice's charges table (account numbers, a
  // history of past bills, a breakdown of one service): they neither confirm nor contradict it.
  const near = charges !== undefined && targets.some((t) => Math.abs(charges - t) <= Math.abs(t) * 0.2);
  if (charges !== undefined && near) {
    check.chargesAdd = targets.some((t) => agrees(charges, t));
    if (!check.chargesAdd)
      check.problems.push(
        `The charges add up to ${money(charges)}, not the ${net !== undefined ? `net ${money(net)}` : `total ${money(gross ?? 0)}`}`,
      );
  }
  const owed = num(statement);
  if (gross !== undefined && owed !== undefined) {
    check.balanceAdds = agrees(owed, gross);
    if (!check.balanceAdds)
      check.problems.push(
        `The balance forward and new charges make ${money(owed)}, not the amount due ${money(gross)}`,
      );
  }
  if (check.taxAdds === undefined && check.chargesAdd === undefined && check.balanceAdds === undefined)
    return undefined;
  return check;
}

/** Confidence kept by a total that does not add up with the rest of the invoice. */
export const UNCHECKED_TOTAL_FACTOR = 0.6;

/**
 * The values a disagreement puts in doubt, with less confidence: net, tax and total when they do not
 * add up (any one of them may be the misread one), the total when the charges do not make it.
 */
export function doubtTotals(values: ExtractedValues, check: TotalsCheck): void {
  const keys: InvoiceKey[] = [];
  if (check.taxAdds === false) keys.push('netTotal', 'vatTotal', 'grossTotal');
  else if (check.chargesAdd === false || check.balanceAdds === false) keys.push('grossTotal');
  for (const key of keys) {
    const value = values[key];
    if (!value) continue;
    values[key] = { ...value, confidence: Math.round(value.confidence * UNCHECKED_TOTAL_FACTOR * 10) / 10 };
  }
}
