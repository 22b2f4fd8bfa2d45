import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths, listAssetRollups } from '../../functions/accounts/index.ts';
import { xlsxOf } from '../support/xlsx-fixture.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';

/**
 * A spreadsheet that unpacks to far more than its size, uploaded as any import file is: the user is told
 * to split it, and nothing is written.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'electricity',
    meterPointNumber: '1312345678907',
  }));
}, 120_000);
afterAll(() => w?.stop());

describe('an uploaded zip bomb', () => {
  it('is refused with a message to split it, and nothing is written', async () => {
    const files = unzipSync(
      xlsxOf([
        {
          name: 'Data',
          rows: [
            ['MPAN', 'Month', 'kWh', 'Cost'],
            ['1312345678907', '2025-01', '1000', '100'],
          ],
        },
      ]),
    );
    const bomb = zipSync(
      { ...files, 'xl/sharedStrings.xml': new Uint8Array(129 * 1024 * 1024).fill(0x20) },
      { level: 6 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);

    const id = await w.upload(owner, 'monthly-consumption', 'readings.xlsx', bomb);
    const record = await w.get(owner, `/imports/${id}`);
    expect(record.body).toMatchObject({
      status: 'error',
      error: 'The spreadsheet unpacks to more than it could hold: split it into smaller files',
    });
    expect((await w.post(owner, `/imports/${id}/preview`)).status).toBeGreaterThanOrEqual(400);
    expect((await w.post(owner, `/imports/${id}/import`)).status).toBeGreaterThanOrEqual(400);
    await w.work();
    expect(await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12')).toEqual([]);
    expect(await listAssetRollups(w.demoId, siteId, '2025-01', '2025-12')).toEqual([]);
  }, 120_000);
});
