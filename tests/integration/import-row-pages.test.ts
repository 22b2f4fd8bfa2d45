import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { putRowPages, ROWS_PER_PAGE, readRowPages } from '../../functions/imports/import-repository.ts';
import { type ApiFixture, startApiFixture } from '../support/api-fixture.ts';

/**
 * An import's outcomes and undo entries are kept in pages. Pages written by an earlier version (rows as
 * a list) must still read, so an import made before an upgrade can still be listed and rolled back.
 */
let fx: ApiFixture;
beforeAll(async () => {
  fx = await startApiFixture();
});
afterAll(async () => fx?.stop());

type Entry = { row: number; accountId: string; before: { consumption: number; cost: number } | null };

describe('import row pages', () => {
  it('read back every row as written, in order, page by page', async () => {
    const rows: Entry[] = Array.from({ length: ROWS_PER_PAGE * 2 + 7 }, (_, i) => ({
      row: i + 2,
      accountId: `meter-${i % 13}`,
      before: i % 3 === 0 ? null : { consumption: i * 1.125, cost: Math.round(i * 0.37 * 100) / 100 },
    }));
    expect(await putRowPages('co-pages', 'imp-1', 'undo', rows)).toBe(3);
    expect(await readRowPages<Entry>('co-pages', 'imp-1', 'undo')).toEqual(rows);
    expect(await readRowPages<Entry>('co-pages', 'imp-1', 'undo', 1, 1)).toEqual(
      rows.slice(ROWS_PER_PAGE, ROWS_PER_PAGE * 2),
    );
  });

  it('still read pages an earlier version wrote as lists, beside new ones', async () => {
    const old: Entry[] = [
      { row: 2, accountId: 'meter-a', before: null },
      { row: 3, accountId: 'meter-b', before: { consumption: 12.5, cost: 3.1 } },
    ];
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          pk: keys.subCollection({ companyId: 'co-old' }, 'imports', 'imp-old', 'rows'),
          sk: 'undo#000000',
          rows: old,
        },
      }),
    );
    const newer: Entry = { row: 4, accountId: 'meter-c', before: null };
    // A second page, as a resumed run of the same import would add it.
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          pk: keys.subCollection({ companyId: 'co-old' }, 'imports', 'imp-old', 'rows'),
          sk: 'undo#000001',
          rowsJson: JSON.stringify([newer]),
        },
      }),
    );
    expect(await readRowPages<Entry>('co-old', 'imp-old', 'undo')).toEqual([...old, newer]);
  });
});
