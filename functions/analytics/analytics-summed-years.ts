import { createHash } from 'node:crypto';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  type IntervalMeter,
  readSummedYearWithVersions,
  readTotalsState,
  replaceSummedYear,
  type TotalsWrite,
} from './analytics-half-hourly-repository.ts';

/**
 * A company's day totals summed over its main meters of a utility and unit, one item a year, are kept
 * under a stamp naming every meter and the version of its totals the sums hold. Reads trust a kept year
 * while its stamp matches the meters' versions now; writes of meters' totals move a kept year by their
 * change and its stamp with them, so the first read after an import or a connector's run reads the kept
 * year rather than every meter's totals again.
 */

const hashOf = (parts: string[]) => createHash('sha256').update(parts.sort().join(',')).digest('base64url');

/**
 * The versions of the meters' totals of a year, and the stamp naming them, which a summed year made from
 * them is kept under; undefined while one of them is being written.
 */
export function versionsOf(
  meters: readonly IntervalMeter[],
  year: string,
): { stamp: string; versions: Map<string, number> } | undefined {
  const versions = new Map<string, number>();
  for (const m of meters) {
    const version = m.totalsVersions?.[year] ?? 0;
    if (version === null) return undefined;
    versions.set(m.accountId, version);
  }
  return { stamp: hashOf([...versions].map(([id, v]) => `${id}:${v}`)), versions };
}

/** The stamp of the meters' versions of a year; undefined while one of them is being written. */
export const stampOf = (meters: readonly IntervalMeter[], year: string) => versionsOf(meters, year)?.stamp;

/** A meter whose totals were written, as it is listed now. */
export interface WrittenMeter {
  accountId: string;
  /** Absent for a sub-meter, whose figures are inside its parent's and in no company sum. */
  assetId?: string;
  utilityType: UtilityType;
  unit: string;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const MAX_ATTEMPTS = 4;

/**
 * Moves the kept summed years by what writes of meters' day totals changed (each meter's writes of a year,
 * in any order). A kept year is moved when it holds each written meter at the version its first write
 * started from (or does not hold it at all) and no other write of those meters' years overlapped theirs;
 * it then holds them as written. Writes that overlapped (two parts of a file, two connectors) still move
 * it when their puts follow on from the item of totals it holds: it then holds the meter at the version
 * settled once they are all in, read back, or, while another write is under way, at no version a read
 * trusts until that write's own move. Anything else leaves the kept year as it is, and the next read sums
 * the meters again.
 */
export async function keepSummedYearsCurrent(
  companyId: string,
  written: readonly { meter: WrittenMeter; writes: readonly TotalsWrite[] }[],
): Promise<void> {
  const groups = new Map<
    string,
    { year: string; utilityType: UtilityType; unit: string; meters: Map<string, TotalsWrite[]> }
  >();
  for (const { meter, writes } of written) {
    if (meter.assetId === undefined) continue;
    for (const w of writes) {
      const key = `${w.year}#${meter.utilityType}#${meter.unit}`;
      const group = groups.get(key) ?? {
        year: w.year,
        utilityType: meter.utilityType,
        unit: meter.unit,
        meters: new Map<string, TotalsWrite[]>(),
      };
      group.meters.set(meter.accountId, [...(group.meters.get(meter.accountId) ?? []), w]);
      groups.set(key, group);
    }
  }
  for (const group of groups.values()) {
    let waited = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const moved = await moveSummedYear(companyId, group);
      if (moved === 'done' || (moved === 'behind' && waited)) break;
      if (moved === 'behind') {
        // Behind these writes: an overlapping write's own move is likely under way. Waited for once only,
        // for a year left behind for good (by a write that could not move it) is summed by the next read.
        waited = true;
        await new Promise((r) => setTimeout(r, 30));
      }
    }
  }
}

/** A version no read's stamp names: the kept year holds the meter's item, but not yet at a settled version. */
const UNSETTLED = -1;

async function moveSummedYear(
  companyId: string,
  group: { year: string; utilityType: UtilityType; unit: string; meters: Map<string, TotalsWrite[]> },
): Promise<'done' | 'again' | 'behind'> {
  const kept = await readSummedYearWithVersions(companyId, group);
  if (!kept) return 'done';
  const { totals } = kept.year;
  const { versions, items } = kept;
  for (const [accountId, writes] of group.meters) {
    const held = versions.get(accountId);
    const heldItem = items.get(accountId);
    const clean = [...writes].sort((a, b) => a.to - b.to);
    const alone =
      clean.every((w, i) => w.alone && (i === 0 || w.from === clean[i - 1]?.to)) &&
      (held === undefined || held === clean[0]?.from);
    // Overlapping writes follow one another on the meter's item of totals.
    const chain = [...writes].sort((a, b) => a.itemTo - b.itemTo);
    const chained =
      chain.every((w, i) => i === 0 || w.itemFrom === chain[i - 1]?.itemTo) &&
      (held === undefined || heldItem === chain[0]?.itemFrom);
    if (!alone && !chained) {
      // Another write's puts came between what the year holds and these: its move may bring it up.
      const first = chain[0] as TotalsWrite;
      return heldItem !== undefined && heldItem < first.itemFrom ? 'behind' : 'done';
    }
    const ordered = alone ? clean : chain;
    const first = ordered[0] as TotalsWrite;
    const last = ordered.at(-1) as TotalsWrite;
    const before = held === undefined ? null : first.before;
    for (let d = 0; d < totals.length; d++) {
      const a = last.after[d] ?? Number.NaN;
      const b = before?.[d] ?? Number.NaN;
      if (Number.isNaN(a) && Number.isNaN(b)) continue;
      // A day the meter no longer has: whether any other meter has it is not known here.
      if (Number.isNaN(a)) return 'done';
      const sum = totals[d] as number;
      totals[d] = round3((Number.isNaN(sum) ? 0 : sum) + a - (Number.isNaN(b) ? 0 : b));
    }
    if (alone) versions.set(accountId, last.to);
    else {
      // The version settled with the item as these writes left it, if no write is under way or came after.
      const now = await readTotalsState(companyId, accountId, group.year);
      versions.set(
        accountId,
        now.settled !== undefined && now.item === last.itemTo ? now.settled : UNSETTLED,
      );
    }
    items.set(accountId, last.itemTo);
  }
  const stamp = hashOf([...versions].map(([id, v]) => `${id}:${v}`));
  const moved = await replaceSummedYear(companyId, { ...kept.year, stamp, totals }, versions, items, {
    stamp: kept.year.stamp,
    packed: kept.packed,
  });
  return moved ? 'done' : 'again';
}
