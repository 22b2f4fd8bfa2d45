import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_LIMIT } from '../../shared/constants.ts';
import {
  type AccessFixture,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * A list answers at most a page of MAX_PAGE_LIMIT items however many are asked for, so an answer stays
 * well under Lambda's 6 MB response limit; the rest is read page by page, and the total counts them all.
 */

let fx: AccessFixture;
let world: DemoWorld;
let owner: DemoUser;
const MADE = MAX_PAGE_LIMIT + 50;

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
  owner = world.user('owner@demo.test');
  const dashboardId = world.demo.probes.get('dashboards');
  for (let made = 0; made < MADE; made += 100) {
    const body = Array.from({ length: Math.min(100, MADE - made) }, (_, i) => ({
      dashboardId,
      settings: { type: `widget ${made + i}` },
    }));
    const res = await fx.api({ method: 'POST', path: '/widgets/bulk', body, token: owner.token });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
  }
}, 120_000);
afterAll(async () => fx?.stop());

const get = async (path: string) => {
  const res = await fx.api({ method: 'GET', path, token: owner.token });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body as { data: { _id: string }[]; total: number; limit: number; skip: number };
};

describe('the page size of lists', () => {
  it('answers a page of at most the cap for a larger limit, saying so, with the true total', async () => {
    for (const limit of ['100000', '5000', String(MAX_PAGE_LIMIT + 1)]) {
      const page = await get(`/widgets?limit=${limit}`);
      expect(page.limit).toBe(MAX_PAGE_LIMIT);
      expect(page.data).toHaveLength(MAX_PAGE_LIMIT);
      expect(page.total).toBeGreaterThanOrEqual(MADE);
    }
    const sites = await get('/assets?limit=100000');
    expect(sites.limit).toBe(MAX_PAGE_LIMIT);
  });

  it('gives every item once, page by page', async () => {
    const seen = new Set<string>();
    let total = 0;
    for (let skip = 0; skip === 0 || skip < total; skip += MAX_PAGE_LIMIT) {
      const page = await get(`/widgets?limit=${MAX_PAGE_LIMIT}&skip=${skip}`);
      total = page.total;
      for (const item of page.data) seen.add(item._id);
    }
    expect(seen.size).toBe(total);
  });
});
