import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import {
  fileOf,
  type ManyMeterWorld,
  round3,
  startImportWorldWithMeters,
  wideHalfHourlyLines,
} from './imports-support.ts';

/**
 * A half-hourly file of more meters than are added to the roll-ups together (50): the worker writes
 * several meters at once and adds their months' changes in batches, and every meter's change must reach
 * the site and company figures, not only the meters' own months.
 */
let world: ManyMeterWorld;
const METERS = 70;
const DATES = ['2026-03-02', '2026-03-03'];

/** Meter i's reading in every half hour. */
const reading = (i: number) => 0.5 * (i + 1);
const expected = round3(
  Array.from({ length: METERS }, (_, i) =>
    DATES.reduce((n, d) => n + reading(i) * settlementPeriods(d), 0),
  ).reduce((a, b) => a + b, 0),
);

beforeAll(async () => {
  world = await startImportWorldWithMeters(METERS, 'Many meter');
}, 180_000);
afterAll(() => world?.w.stop());

describe('a half-hourly file of more meters than one roll-up batch', () => {
  it("adds every meter's change to the site and company figures", async () => {
    const { w, owner } = world;
    const id = await w.upload(
      owner,
      'half-hourly-wide',
      'march.csv',
      fileOf(wideHalfHourlyLines('Many meter', METERS, DATES, reading)),
    );
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({
      status: 'completed',
      results: { rows: METERS * DATES.length, create: METERS * DATES.length, error: 0 },
    });
    expect(await world.figures('2026-03', '2026-03')).toEqual({
      meters: expected,
      site: expected,
      company: expected,
    });
  }, 180_000);
});
