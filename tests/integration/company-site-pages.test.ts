import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import type { StoredItem } from '../../functions/core/data/item-repository.ts';
import { ORDERED_INDEX } from '../../functions/core/data/keys.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/** Longer than the ordered index is allowed to take to catch up with a write (company-site-pages.ts). */
const INDEX_CAUGHT_UP_MS = 11_000;

let w: RegisterWorld;
let api: Api;
let owner: string;
let holder: string;

/** Reads of the ordered index, counted; while `lagging` holds an answer, the index gives that one instead. */
let indexReads = 0;
let lastIndexAnswer: unknown;
let lagging: unknown;

/** The clock as the functions see it, moved on by the test. */
let ahead = 0;
const realNow = Date.now.bind(Date);

beforeAll(async () => {
  w = await startRegisterWorld();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string };
      if (context.commandName !== 'QueryCommand' || input.IndexName !== ORDERED_INDEX) return next(args);
      indexReads++;
      if (lagging) return lagging as Awaited<ReturnType<typeof next>>;
      const out = await next(args);
      lastIndexAnswer = out;
      return out;
    },
    { step: 'initialize', name: 'testOrderedIndexReads' },
  );
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ahead);
  api = w.api;
  owner = w.token('owner');
  holder = await created(api, owner, '/entities', { legalName: 'Listed Holdings Ltd' });
}, 60_000);

afterEach(() => {
  lagging = undefined;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await w?.stop();
});

const list = async () => {
  const res = await api({ method: 'GET', path: '/assets?limit=20', token: owner });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: StoredItem[]; total: number };
};

const patch = async (id: string, body: Record<string, unknown>) => {
  const res = await api({ method: 'PATCH', path: `/assets/${id}`, token: owner, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const shown = async (id: string) => (await list()).data.find((a) => a._id === id);

describe("the owner's list of every site", () => {
  it('reads the index once while the site list stands, and shows every edit on the next call', async () => {
    const ids: string[] = [];
    for (const name of ['Alder House', 'Birch Court', 'Cedar Works'])
      ids.push(await created(api, owner, '/assets', { siteName: name, entityId: holder }));
    const [alder, birch, cedar] = ids as [string, string, string];
    const first = await list();
    expect(first.data.map((a) => a.siteName)).toEqual(['Alder House', 'Birch Court', 'Cedar Works']);

    // Once the list has stood long enough for the index to hold every write, a page read is kept.
    ahead += INDEX_CAUGHT_UP_MS;
    await list();
    indexReads = 0;
    expect((await list()).data).toEqual(first.data);
    expect((await list()).total).toBe(3);
    expect(indexReads).toBe(0);

    // Any field, one write before a call and then two.
    await patch(birch, { status: 'sold' });
    expect((await shown(birch))?.status).toBe('sold');
    await patch(alder, { epcRating: 'B' });
    await patch(cedar, { floorArea: 250 });
    expect((await shown(alder))?.epcRating).toBe('B');
    expect((await shown(cedar))?.floorArea).toBe(250);
    // A rename moves the site in the order, a delete takes it off and out of the total.
    await patch(alder, { siteName: 'Yew Lodge' });
    expect((await list()).data.map((a) => a.siteName)).toEqual(['Birch Court', 'Cedar Works', 'Yew Lodge']);
    expect((await api({ method: 'DELETE', path: `/assets/${birch}`, token: owner })).status).toBe(200);
    const after = await list();
    expect(after.data.map((a) => a.siteName)).toEqual(['Cedar Works', 'Yew Lodge']);
    expect(after.total).toBe(2);
  });

  it('does not keep a page the index answered before it caught up with a write', async () => {
    const id = await created(api, owner, '/assets', { siteName: 'Elm Street Depot', entityId: holder });
    ahead += INDEX_CAUGHT_UP_MS;
    await list();
    const before = await list();
    expect(before.data.find((a) => a._id === id)?.status).not.toBe('inactive');

    // The index still answers as it was before the write, for a moment after it.
    await patch(id, { status: 'inactive' });
    lagging = lastIndexAnswer;
    expect((await shown(id))?.status).not.toBe('inactive');
    lagging = undefined;
    ahead += 1_000;
    // Caught up: the next call shows the write, and so does every call after it.
    expect((await shown(id))?.status).toBe('inactive');
    ahead += INDEX_CAUGHT_UP_MS;
    expect((await shown(id))?.status).toBe('inactive');
    expect((await shown(id))?.status).toBe('inactive');
  });
});
