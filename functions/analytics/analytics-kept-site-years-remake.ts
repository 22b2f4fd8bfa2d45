/*
 * The kept copy of site years (analytics-site-years.ts) made afresh off the call: a table that finds a
 * part older than an hour asks the analytics worker, and the worker makes it here from every item. Apart
 * from the tables' own module, so the functions that serve tables do not carry it.
 */
import {
  type ChangeMark,
  marksOf,
  readChangeMarks,
  restartJournal,
  settledFor,
} from '../core/data/change-marks.ts';
import { keepSiteYears, readKeptSiteYears } from './analytics-kept-site-years-repository.ts';
import {
  buildSitesPart,
  buildYearPart,
  ensureSiteYears,
  KEPT_FOR_MS,
  KEPT_FROM_YEAR,
  KEPT_LAYOUT,
  marksOfPart,
  SITES_PART,
  yearsBetween,
} from './analytics-site-years.ts';

/**
 * Makes the named parts of the company's copy afresh from every item, as a caller does when none is kept,
 * and keeps each unless a later one was kept meanwhile. A part made afresh within the hour is left: asked
 * twice, or asked again after a worker died midway, the work is done once. A worker that dies midway
 * leaves the kept part whole (its pieces are written apart from the kept one's).
 */
export async function remakeKeptParts(companyId: string, parts: readonly string[], now = Date.now()) {
  const thisYear = new Date(now).getUTCFullYear();
  const known = new Set([SITES_PART, ...yearsBetween(KEPT_FROM_YEAR, thisYear).map(String)]);
  let ensured: Promise<void> | undefined;
  const made: string[] = [];
  for (const part of new Set(parts)) {
    if (!known.has(part)) continue;
    const kept = await readKeptSiteYears<unknown>(companyId, part);
    if (kept && kept.layout === KEPT_LAYOUT && kept.builtAt <= now && now - kept.builtAt < KEPT_FOR_MS)
      continue;
    const marks = await readChangeMarks(companyId);
    const names = marksOfPart(part);
    const at = Date.now();
    const payload =
      part === SITES_PART
        ? await buildSitesPart(companyId)
        : await (async () => {
            ensured ??= ensureSiteYears(companyId);
            await ensured;
            return buildYearPart(companyId, Number(part));
          })();
    if (!settledFor(marks, names, at)) continue;
    const copy = { marks: marksOf(marks, names), layout: KEPT_LAYOUT, builtAt: at, payload };
    const stored = await keepSiteYears(
      companyId,
      part,
      copy,
      kept && { build: kept.build, parts: kept.parts },
    );
    if (!stored) continue;
    await restartJournal(companyId, marks, names[names.length - 1] as ChangeMark, at);
    made.push(part);
  }
  return made;
}
