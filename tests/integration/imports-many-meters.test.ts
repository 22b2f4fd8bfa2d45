import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths, listAssetRollups, listCompanyRollups } from '../../functions/accounts/index.ts';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * A half-hourly file of more meters than are added to the roll-ups together (50): the worker writes
 * several meters at once and adds their months' changes in batches, and every meter's change must reach
 * the site and company figures, not only the meters' own months.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
const meterIds: string[] = [];
const METERS = 70;
const DATES = ['2026-03-02', '2026-03-03'];

const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** Meter i's reading in every half hour. */
const reading = (i: number) => 0.5 * (i + 1);
const expected = round3(
  Array.from({ length: METERS }, (_, i) =>
    DATES.reduce((n, d) => n + reading(i) * settlementPeriods(d), 0),
  ).reduce((a, b) => a + b, 0),
);

function wideFile(): Uint8Array {
  const header = ['MPAN', 'Date', ...Array.from({ length: 48 }, (_, i) => `HH${i + 1}`)];
  const lines = [header.join(',')];
  for (let m = 0; m < METERS; m++)
    for (const date of DATES) {
      const values = Array.from({ length: settlementPeriods(date) }, () => String(reading(m)));
      lines.push(
        `Many meter ${m + 1},${date.slice(8)}/${date.slice(5, 7)}/${date.slice(0, 4)},${values.join(',')}`,
      );
    }
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}

const sum = (rows: readonly { consumption: number }[]) =>
  round3(rows.reduce((n, r) => n + Number(r.consumption), 0));

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  const entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  siteId = await created(w.api, owner, '/assets', { siteName: 'Aldgate', entityId });
  for (let m = 0; m < METERS; m++)
    meterIds.push(
      await created(w.api, owner, '/accounts', {
        type: 'electricity',
        assetId: siteId,
        name: `Many meter ${m + 1}`,
      }),
    );
}, 180_000);
afterAll(() => w?.stop());

describe('a half-hourly file of more meters than one roll-up batch', () => {
  it("adds every meter's change to the site and company figures", async () => {
    const id = await w.upload(owner, 'half-hourly-wide', 'march.csv', wideFile());
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({
      status: 'completed',
      results: { rows: METERS * DATES.length, create: METERS * DATES.length, error: 0 },
    });
    const meters = round3(
      (
        await Promise.all(
          meterIds.map(async (m) => sum(await listAccountMonths(w.demoId, m, '2026-03', '2026-03'))),
        )
      ).reduce((a, b) => a + b, 0),
    );
    const site = sum(await listAssetRollups(w.demoId, siteId, '2026-03', '2026-03'));
    const company = sum(
      (await listCompanyRollups(w.demoId, '2026-03', '2026-03')).filter(
        (r) => r.utilityType === 'electricity',
      ),
    );
    expect({ meters, site, company }).toEqual({ meters: expected, site: expected, company: expected });
  }, 180_000);
});
