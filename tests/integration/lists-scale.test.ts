import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { writingSites } from '../../functions/core/data/change-marks.ts';
import { queryAll, type StoredItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { compareOrderKeys, orderKey } from '../../shared/domain/order-key.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;

const page = async (path: string, token = owner) => {
  const res = await api({ method: 'GET', path, token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: StoredItem[]; total: number; limit: number; skip: number };
};

/** What the table holds, read whole and in key order: the answer a list must agree with. */
const liveInTable = async (resource: string) =>
  (await queryAll(keys.collection({ companyId: w.demoId }, resource))).filter((i) => i.deleted !== true);

const bySiteName = (items: StoredItem[]) =>
  [...items].sort(
    (a, b) => compareOrderKeys(orderKey(a.siteName), orderKey(b.siteName)) || compareOrderKeys(a._id, b._id),
  );

const ids = (items: StoredItem[]) => items.map((i) => i._id);

/** Read units the table reports for everything `work` reads (the caller's check included). */
let tally: { units: number } | undefined;
const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
  'ScanCommand',
]);
async function readUnits(work: () => Promise<unknown>): Promise<number> {
  tally = { units: 0 };
  try {
    await work();
    return tally.units;
  } finally {
    tally = undefined;
  }
}

/** Has `client` report each read it makes: its command, whether it was consistent, and its read units. */
function onEachRead(
  client: ReturnType<typeof documentClient>,
  name: string,
  seen: (read: { command: string; consistent: boolean; units: number }) => void,
) {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '';
      if (!READS.has(command)) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string; ConsistentRead?: boolean };
      input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      let units = 0;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
        units += (c as { CapacityUnits?: number }).CapacityUnits ?? 0;
      seen({ command, consistent: input.ConsistentRead === true, units });
      return out;
    },
    { step: 'initialize', name },
  );
}

/** An entity `{name} Holdings Ltd` holding `count` sites `{name} 00`, `{name} 01`, …: their ids, in name order. */
async function sitesUnder(name: string, count: number): Promise<string[]> {
  const holder = await created(api, owner, '/entities', { legalName: `${name} Holdings Ltd` });
  const made: string[] = [];
  for (let i = 0; i < count; i++)
    made.push(
      await created(api, owner, '/assets', {
        siteName: `${name} ${String(i).padStart(2, '0')}`,
        entityId: holder,
      }),
    );
  return made;
}

/**
 * The sites `from` to `to` of what a user may read, as a process started now shows them, and the read
 * units that took (the caller's check included).
 */
async function pageInFreshProcess(userId: string, from: number, to: number) {
  vi.resetModules();
  const { documentClient: client } = await import('../../functions/core/adapters/dynamo.ts');
  const { loadCaller } = await import('../../functions/core/access/caller-service.ts');
  const { readableOf } = await import('../../functions/core/access/item-access-service.ts');
  const { sitesInOrder } = await import('../../functions/assets/asset-list-cache.ts');
  let units = 0;
  onEachRead(client(), `${userId}ReadUnits`, (read) => {
    units += read.units;
  });
  const caller = await loadCaller(userId);
  const readable = await readableOf(caller);
  const shown = await sitesInOrder(
    w.demoId,
    caller.siteList ?? { mark: 0 },
    readable?.assetsInOrder.slice(from, to) ?? [],
  );
  return { shown, units };
}

/** Every site shown is the table's site as it stands, field for field. */
async function expectAsInTable(shown: StoredItem[]) {
  const inTable = new Map((await liveInTable('assets')).map((site) => [site._id, site]));
  expect(shown).toEqual(shown.map((site) => inTable.get(site._id)));
}

beforeAll(async () => {
  w = await startRegisterWorld();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (!tally || !READS.has(context.commandName ?? '')) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
        if (tally) tally.units += (c as { CapacityUnits?: number }).CapacityUnits ?? 0;
      return out;
    },
    { step: 'initialize', name: 'testReadUnits' },
  );
  api = w.api;
  owner = w.token('owner');
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

describe('list totals', () => {
  it('stay exact through creates, deletes, restores, an import and its rollback', async () => {
    const start = (await page('/entities?limit=1')).total;
    expect(start).toBe((await liveInTable('entities')).length);

    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await created(api, owner, '/entities', { legalName: `Count ${i} Ltd` }));
    expect((await page('/entities?limit=1')).total).toBe(start + 5);

    for (const id of made.slice(0, 2)) {
      expect((await api({ method: 'DELETE', path: `/entities/${id}`, token: owner })).status).toBe(200);
    }
    // Deleting twice moves nothing.
    await api({ method: 'DELETE', path: `/entities/${made[0]}`, token: owner });
    expect((await page('/entities?limit=1')).total).toBe(start + 3);

    const restored = await api({ method: 'PUT', path: `/entities/${made[0]}`, token: owner });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await page('/entities?limit=1')).total).toBe(start + 4);

    const csv = `legalName\n${Array.from({ length: 7 }, (_, i) => `Imported ${i} Ltd`).join('\n')}\n`;
    const imported = await api({
      method: 'POST',
      path: '/entities/import',
      token: owner,
      body: { fileName: 'e.csv', csv },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect((await page('/entities?limit=1')).total).toBe(start + 11);

    const undo = await api({
      method: 'POST',
      path: '/entities/import-rollback',
      token: owner,
      body: { batchId: imported.body.batchId },
    });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    const after = await page('/entities?limit=1');
    expect(after.total).toBe(start + 4);
    expect(after.total).toBe((await liveInTable('entities')).length);
  });

  it('stays exact when many creates land at once', async () => {
    const start = (await page('/entities?limit=1')).total;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => created(api, owner, '/entities', { legalName: `Busy ${i} Ltd` })),
    );
    const after = await page('/entities?limit=1');
    expect(after.total).toBe(start + 30);
    expect(after.total).toBe((await liveInTable('entities')).length);
  });
});

describe('deep pages', () => {
  it('answer the same items as reading the whole collection, both ways, after deletes too', async () => {
    for (let i = 0; i < 50; i++) await created(api, owner, '/entities', { legalName: `Deep ${i} Ltd` });
    const check = async () => {
      const live = await liveInTable('entities');
      for (const skip of [0, 19, 20, 21, 45, 60, live.length - 3]) {
        const up = await page(`/entities?limit=7&skip=${skip}`);
        expect(ids(up.data)).toEqual(ids(live.slice(skip, skip + 7)));
        expect(up.total).toBe(live.length);
        const down = await page(`/entities?limit=7&skip=${skip}&$sort=-createdAt`);
        expect(ids(down.data)).toEqual(ids([...live].reverse().slice(skip, skip + 7)));
      }
    };
    await check();
    // A delete in the middle moves every later item back one place: the stored bookmarks no longer fit.
    const live = await liveInTable('entities');
    await api({ method: 'DELETE', path: `/entities/${live[25]?._id}`, token: owner });
    await check();
  });

  it('of sites by name match a sort of every site, through renames and deletes', async () => {
    const holder = await created(api, owner, '/entities', { legalName: 'Site Holdings Ltd' });
    const names = ['Unit 10', 'unit 9', 'Éclair House', 'Abbey Mill', 'Zeta Yard', 'Bank Chambers'];
    for (let i = 0; i < 60; i++) {
      await created(api, owner, '/assets', {
        siteName: `${names[i % names.length]} ${(i * 7) % 13}`,
        entityId: holder,
      });
    }
    const check = async () => {
      const sorted = bySiteName(await liveInTable('assets'));
      for (const skip of [0, 20, 33, 40, sorted.length - 5]) {
        const res = await page(`/assets?limit=6&skip=${skip}`);
        expect(res.data.map((a) => a.siteName)).toEqual(sorted.slice(skip, skip + 6).map((a) => a.siteName));
        expect(ids(res.data)).toEqual(ids(sorted.slice(skip, skip + 6)));
        expect(res.total).toBe(sorted.length);
      }
    };
    await check();
    const sorted = bySiteName(await liveInTable('assets'));
    const moved = sorted[30] as StoredItem;
    const renamed = await api({
      method: 'PATCH',
      path: `/assets/${moved._id}`,
      token: owner,
      body: { siteName: 'AAA First Now' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await check();
    await api({ method: 'DELETE', path: `/assets/${sorted[5]?._id}`, token: owner });
    await check();
  });
});

describe('a granted user', () => {
  it('sees a grant change, and a site moved under a granted entity, on the next call', async () => {
    const sites = bySiteName(await liveInTable('assets'));
    const [first, second, third] = sites as [StoredItem, StoredItem, StoredItem];
    const user = await w.addUser('lister', ['asset_user'], { assets: { read: [first._id], write: [] } });
    const one = await page('/assets?limit=10', user);
    expect(ids(one.data)).toEqual([first._id]);
    expect(one.total).toBe(1);

    const patched = await api({
      method: 'PATCH',
      path: '/users/lister',
      token: owner,
      body: {
        grants: {
          entities: { read: [], write: [] },
          assets: { read: [first._id, second._id], write: [] },
          accounts: { read: [], write: [] },
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const two = await page('/assets?limit=10', user);
    expect(ids(two.data)).toEqual([first._id, second._id]);
    expect(two.total).toBe(2);

    // A new entity granted to the user, then a site moved under it: the tree changed, not the grants.
    const entity = await created(api, owner, '/entities', { legalName: 'Granted Holdings Ltd' });
    await api({
      method: 'PATCH',
      path: '/users/lister',
      token: owner,
      body: {
        grants: {
          entities: { read: [entity], write: [] },
          assets: { read: [first._id], write: [] },
          accounts: { read: [], write: [] },
        },
      },
    });
    expect(ids((await page('/assets?limit=10', user)).data)).toEqual([first._id]);
    const move = await api({
      method: 'PATCH',
      path: `/assets/${third._id}`,
      token: owner,
      body: { entityId: entity },
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    const three = await page('/assets?limit=10', user);
    expect(ids(three.data)).toEqual(ids(bySiteName([first, { ...third }])));
    expect(three.total).toBe(2);
    const entities = await page('/entities?limit=10', user);
    expect(ids(entities.data)).toEqual([entity]);

    // Deleting a readable site takes it out of the user's list at once.
    await api({ method: 'DELETE', path: `/assets/${third._id}`, token: owner });
    const four = await page('/assets?limit=10', user);
    expect(ids(four.data)).toEqual([first._id]);
  });

  it('reads a page of 20 sites for at most 10 read units, and shows every edit and lost grant on the next call', async () => {
    const holder = await created(api, owner, '/entities', { legalName: 'Paged Holdings Ltd' });
    const made: string[] = [];
    for (let i = 0; i < 24; i++) {
      const name = `Granted ${String(i).padStart(2, '0')}`;
      made.push(await created(api, owner, '/assets', { siteName: name, entityId: holder }));
    }
    const user = await w.addUser('pager', ['asset_user'], { assets: { read: made, write: [] } });
    const first = await page('/assets?limit=20', user);
    expect(ids(first.data)).toEqual(made.slice(0, 20));
    expect(first.total).toBe(24);

    // The sites are not adjacent in the table, so each read by key costs half a unit at the least.
    let again: Awaited<ReturnType<typeof page>> | undefined;
    const units = await readUnits(async () => {
      again = await page('/assets?limit=20', user);
    });
    expect(again?.data).toEqual(first.data);
    expect(units).toBeLessThanOrEqual(10);

    const patch = async (id: string | undefined, body: Record<string, unknown>) => {
      const res = await api({ method: 'PATCH', path: `/assets/${id}`, token: owner, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const shown = async (id: string | undefined) =>
      (await page('/assets?limit=20', user)).data.find((a) => a._id === id);

    // Fields that neither access nor the site tables hang on, one write and then two before a call.
    await patch(made[3], { status: 'sold' });
    expect((await shown(made[3]))?.status).toBe('sold');
    await patch(made[4], { epcRating: 'B' });
    await patch(made[5], { status: 'development' });
    expect((await shown(made[4]))?.epcRating).toBe('B');
    expect((await shown(made[5]))?.status).toBe('development');
    await patch(made[6], { siteName: 'Granted 06 renamed' });
    expect((await shown(made[6]))?.siteName).toBe('Granted 06 renamed');
    await patch(made[6], { floorArea: 250 });
    expect((await shown(made[6]))?.floorArea).toBe(250);

    // A grant taken away hides the site on the next call.
    const revoked = await api({
      method: 'PATCH',
      path: '/users/pager',
      token: owner,
      body: {
        grants: {
          entities: { read: [], write: [] },
          assets: { read: made.filter((id) => id !== made[0]), write: [] },
          accounts: { read: [], write: [] },
        },
      },
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const after = await page('/assets?limit=20', user);
    expect(ids(after.data)).not.toContain(made[0]);
    expect(after.total).toBe(23);
    expect(ids(after.data)).toEqual(made.slice(1, 21));
  });

  it('reads a page last shown two edits or a minute ago for at most 10 units, and shows what was written', async () => {
    const holder = await created(api, owner, '/entities', { legalName: 'Cold Holdings Ltd' });
    const made: string[] = [];
    for (let i = 0; i < 22; i++) {
      const name = `Cold ${String(i).padStart(2, '0')}`;
      made.push(await created(api, owner, '/assets', { siteName: name, entityId: holder }));
    }
    const user = await w.addUser('cold', ['asset_user'], { assets: { read: made, write: [] } });
    expect(ids((await page('/assets?limit=20', user)).data)).toEqual(made.slice(0, 20));
    const patch = async (id: string | undefined, body: Record<string, unknown>) => {
      const res = await api({ method: 'PATCH', path: `/assets/${id}`, token: owner, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const shownAfter = async () => {
      let shown: StoredItem[] = [];
      const units = await readUnits(async () => {
        shown = (await page('/assets?limit=20', user)).data;
      });
      return { units, site: (id: string | undefined) => shown.find((a) => a._id === id) };
    };

    // Two edits between calls: the site list mark no longer names the one site to read again.
    await patch(made[2], { status: 'sold' });
    await patch(made[7], { epcRating: 'A' });
    const twice = await shownAfter();
    expect(twice.site(made[2])?.status).toBe('sold');
    expect(twice.site(made[7])?.epcRating).toBe('A');
    expect(twice.units).toBeLessThanOrEqual(10);
    await patch(made[11], { status: 'development' });
    await patch(made[12], { floorArea: 420 });
    await patch(made[2], { status: 'active' });
    const thrice = await shownAfter();
    expect(thrice.site(made[11])?.status).toBe('development');
    expect(thrice.site(made[12])?.floorArea).toBe(420);
    expect(thrice.site(made[2])?.status).toBe('active');
    expect(thrice.units).toBeLessThanOrEqual(10);

    // A writer that stops between its write and moving the site list mark: a minute on, the page shows it.
    const key = { pk: keys.collection({ companyId: w.demoId }, 'assets'), sk: made[9] };
    const stored = (await documentClient().send(new GetCommand({ TableName: config().tableName, Key: key })))
      .Item;
    let landed = false;
    let release = () => {};
    const stopped = writingSites(w.demoId, [String(made[9])], async () => {
      await documentClient().send(
        new PutCommand({ TableName: config().tableName, Item: { ...stored, epcRating: 'G' } }),
      );
      landed = true;
      await new Promise<void>((done) => {
        release = done;
      });
    });
    await vi.waitFor(() => expect(landed).toBe(true));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const late = await shownAfter();
      expect(late.site(made[9])?.epcRating).toBe('G');
      expect(late.site(made[2])?.status).toBe('active');
      expect(late.units).toBeLessThanOrEqual(10);
      // Nothing written since: a minute later still costs no more.
      vi.setSystemTime(Date.now() + 61_000);
      const quiet = await shownAfter();
      expect(quiet.site(made[9])?.epcRating).toBe('G');
      expect(quiet.units).toBeLessThanOrEqual(10);
    } finally {
      vi.useRealTimers();
      // The writer finishes after all, so later writes are not taken for ones under way with it.
      release();
      await stopped;
    }
  });

  it('in a fresh process, reads what it may read from the copy kept at the access version, not the whole hierarchy', async () => {
    const holder = await created(api, owner, '/entities', { legalName: 'Fresh Holdings Ltd' });
    const granted: string[] = [];
    for (const name of ['Fresh A', 'Fresh B', 'Fresh C'])
      granted.push(await created(api, owner, '/assets', { siteName: name, entityId: holder }));
    const user = await w.addUser('fresh', ['asset_user'], { assets: { read: granted, write: [] } });
    expect(ids((await page('/assets?limit=20', user)).data)).toEqual(granted);

    /** What a process started now works out for the user, and the read units that took. */
    const inFreshProcess = async () => {
      vi.resetModules();
      const { documentClient: client } = await import('../../functions/core/adapters/dynamo.ts');
      const { loadCaller } = await import('../../functions/core/access/caller-service.ts');
      const { readableOf } = await import('../../functions/core/access/item-access-service.ts');
      const caller = await loadCaller('fresh');
      let units = 0;
      let queries = 0;
      let eventual = 0;
      onEachRead(client(), 'freshReadUnits', (read) => {
        units += read.units;
        if (read.command !== 'QueryCommand') return;
        queries++;
        if (!read.consistent) eventual++;
      });
      const readable = await readableOf(caller);
      return { assets: readable?.assetsInOrder, units, queries, eventual };
    };
    const fresh = await inFreshProcess();
    expect(fresh.assets).toEqual(granted);
    // One small item, where working it out queries every entity, site, meter and portfolio of the company.
    expect(fresh.queries).toBe(0);
    expect(fresh.units).toBeLessThanOrEqual(1);

    // A granted site deleted moves the access version: the kept copy no longer stands for it.
    const gone = await api({ method: 'DELETE', path: `/assets/${granted[1]}`, token: owner });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    // Worked out afresh, from reads that see every write finished before them: what it works out is
    // kept for as long as the access version stands, by every process.
    const worked = await inFreshProcess();
    expect(worked.assets).toEqual([granted[0], granted[2]]);
    expect(worked.queries).toBeGreaterThan(0);
    expect(worked.eventual).toBe(0);
    const again = await inFreshProcess();
    expect(again.assets).toEqual([granted[0], granted[2]]);
    expect(again.queries).toBe(0);
  });

  it('in a fresh process, shows a page from the sites another process kept, with the edits since, for at most 10 units', async () => {
    const made = await sitesUnder('Copied', 22);
    const user = await w.addUser('copied', ['asset_user'], { assets: { read: made, write: [] } });
    expect(ids((await page('/assets?limit=20', user)).data)).toEqual(made.slice(0, 20));
    for (const [id, body] of [
      [made[1], { status: 'sold' }],
      [made[8], { epcRating: 'D' }],
    ] as const) {
      const res = await api({ method: 'PATCH', path: `/assets/${id}`, token: owner, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const { shown, units } = await pageInFreshProcess('copied', 0, 20);
    expect(ids(shown)).toEqual(made.slice(0, 20));
    expect(shown.find((s) => s._id === made[1])?.status).toBe('sold');
    expect(shown.find((s) => s._id === made[8])?.epcRating).toBe('D');
    await expectAsInTable(shown);
    // The caller's check included: a page read site by site costs 20 units and more.
    expect(units).toBeLessThanOrEqual(10);
  });
  it('in a fresh process, shows a page no process has shown yet, with an edit since, for at most 10 units', async () => {
    const made = await sitesUnder('Unseen', 45);
    const user = await w.addUser('unseen', ['asset_user'], { assets: { read: made, write: [] } });
    // Only the first page is shown here; the second is asked for first in a process started afterwards.
    expect(ids((await page('/assets?limit=20', user)).data)).toEqual(made.slice(0, 20));
    const edited = await api({
      method: 'PATCH',
      path: `/assets/${made[27]}`,
      token: owner,
      body: { status: 'sold', epcRating: 'F' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const { shown, units: spent } = await pageInFreshProcess('unseen', 20, 40);
    expect(ids(shown)).toEqual(made.slice(20, 40));
    expect(shown.find((s) => s._id === made[27])).toMatchObject({ status: 'sold', epcRating: 'F' });
    await expectAsInTable(shown);
    // The caller's check included: twenty sites read one by one cost twenty units and more.
    expect(spent).toBeLessThanOrEqual(10);
  });
  it('in a fresh process, shows an edit that landed while the work-out of what the user may read was reading the sites', async () => {
    const made = await sitesUnder('Racing', 30);
    const user = await w.addUser('racing', ['asset_user'], { assets: { read: made, write: [] } });
    // The edit lands just after the work-out has read every site of the company, before the list keeps any.
    const sitesPk = keys.collection({ companyId: w.demoId }, 'assets');
    let armed = true;
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        const input = args.input as {
          ConsistentRead?: boolean;
          ExpressionAttributeValues?: Record<string, unknown>;
        };
        if (
          armed &&
          context.commandName === 'QueryCommand' &&
          input.ConsistentRead === true &&
          input.ExpressionAttributeValues?.[':pk'] === sitesPk
        ) {
          armed = false;
          const res = await api({
            method: 'PATCH',
            path: `/assets/${made[24]}`,
            token: owner,
            body: { status: 'sold' },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
        }
        return out;
      },
      { step: 'initialize', name: 'editDuringWorkOut' },
    );
    try {
      expect(ids((await page('/assets?limit=20', user)).data)).toEqual(made.slice(0, 20));
    } finally {
      documentClient().middlewareStack.remove('editDuringWorkOut');
    }
    expect(armed).toBe(false);

    const { shown } = await pageInFreshProcess('racing', 20, 40);
    expect(ids(shown)).toEqual(made.slice(20, 30));
    expect(shown.find((s) => s._id === made[24])?.status).toBe('sold');
  });
  it('keeps the sites worked out on another call first, so neither page reads them one by one, here or in a fresh process', async () => {
    const made = await sitesUnder('Handed', 45);
    const user = await w.addUser('handed', ['asset_user'], { assets: { read: made, write: [] } });
    // The first call after the grant is not the list: it works out what the user may read.
    await page('/entities?limit=5', user);
    let first: Awaited<ReturnType<typeof page>> | undefined;
    const firstUnits = await readUnits(async () => {
      first = await page('/assets?limit=20', user);
    });
    expect(ids(first?.data ?? [])).toEqual(made.slice(0, 20));
    expect(firstUnits).toBeLessThanOrEqual(10);

    const { shown, units: spent } = await pageInFreshProcess('handed', 20, 40);
    expect(ids(shown)).toEqual(made.slice(20, 40));
    await expectAsInTable(shown);
    expect(spent).toBeLessThanOrEqual(10);
  });
});
