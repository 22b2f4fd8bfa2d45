import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type DiskLevelClass,
  type MemoryStoreClass,
  mirroredLevelClass,
} from '../../infra/local/mirrored-level.ts';

// The classes dynalite itself uses, resolved from where it finds them.
const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const fromLevel = createRequire(fromDynalite.resolve('level'));
const { MemoryLevel } = fromDynalite('memory-level') as { MemoryLevel: MemoryStoreClass };
const { ClassicLevel } = fromLevel('classic-level') as { ClassicLevel: DiskLevelClass };

interface Db {
  open(): Promise<void>;
  close(): Promise<void>;
  put(key: string, value: unknown): Promise<void>;
  get(key: string): Promise<unknown>;
  del(key: string): Promise<void>;
  batch(ops: ({ type: 'put'; key: string; value: unknown } | { type: 'del'; key: string })[]): Promise<void>;
  values(options?: Record<string, unknown>): { all(): Promise<unknown[]> };
}

const MirroredLevel = mirroredLevelClass(MemoryLevel, ClassicLevel) as unknown as new (
  location: string,
  options: { valueEncoding: string },
) => Db;
const LevelDb = ClassicLevel as unknown as new (location: string, options: { valueEncoding: string }) => Db;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the local DynamoDB store, read from memory and written to disk', () => {
  it('keeps every write on disk, readable by LevelDB itself after a close', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mirrored-'));
    const db = new MirroredLevel(dir, { valueEncoding: 'json' });
    await db.open();
    await db.put('a~1', { n: 1 });
    await db.batch([
      { type: 'put', key: 'a~2', value: { n: 2 } },
      { type: 'put', key: 'a~3', value: { n: 3 } },
      { type: 'del', key: 'a~1' },
    ]);
    await db.del('a~3');
    expect(await db.values({ gte: 'a~', lt: 'a~\xff' }).all()).toEqual([{ n: 2 }]);
    await db.close();

    const disk = new LevelDb(dir, { valueEncoding: 'json' });
    await disk.open();
    expect(await disk.values().all()).toEqual([{ n: 2 }]);
    await disk.close();
  });

  it('opens a state folder written by LevelDB alone and reads its entries in key order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mirrored-'));
    const disk = new LevelDb(dir, { valueEncoding: 'json' });
    await disk.open();
    await disk.batch(
      ['c', 'a', 'b'].map((k) => ({
        type: 'put' as const,
        key: `item~${k}`,
        value: { k, text: 'Café “Quay”' },
      })),
    );
    await disk.close();

    const db = new MirroredLevel(dir, { valueEncoding: 'json' });
    await db.open();
    expect(await db.get('item~b')).toEqual({ k: 'b', text: 'Café “Quay”' });
    expect(
      ((await db.values({ gte: 'item~', lt: 'item~\xff' }).all()) as { k: string }[]).map((v) => v.k),
    ).toEqual(['a', 'b', 'c']);
    await db.close();
  });

  it('writes many changes to one key made at once in the order they were made', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mirrored-'));
    const db = new MirroredLevel(dir, { valueEncoding: 'json' });
    await db.open();
    await Promise.all(Array.from({ length: 50 }, (_, i) => db.put('counter', { i })));
    expect(await db.get('counter')).toEqual({ i: 49 });
    await db.close();
    const disk = new LevelDb(dir, { valueEncoding: 'json' });
    await disk.open();
    expect(await disk.get('counter')).toEqual({ i: 49 });
    await disk.close();
  });
});
