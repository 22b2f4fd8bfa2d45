import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyInvoiceContribution,
  listPortfolioRollups,
  rebuildPortfolioRollups,
} from '../../functions/accounts/index.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * A portfolio's figures come from its own roll-up, kept by the deltas its sites' roll-ups get. Bills by hand
 * (electricity unless said), 2025:
 *
 *   Aldgate  01: 1000 kWh £250 207 kg    gas 01: 5000 kWh £400 915 kg
 *   Temple   01: 2000 kWh £500 414 kg    02:  1500 kWh £375 310.5 kg
 *   Hardman  02: 3000 kWh £750 621 kg
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};
const Q = 'startDate=2025-01-01&endDate=2025-03-31';

async function bill(
  name: string,
  utilityType: UtilityType,
  month: string,
  consumption: number,
  cost: number,
  emissionsKg: number,
  invoiceId = newId(),
  sign: 1 | -1 = 1,
) {
  const [siteName = ''] = name.split(' ');
  await applyInvoiceContribution(
    w.demoId,
    account[name] as string,
    site[siteName],
    invoiceId,
    { month, utilityType, consumption, unit: 'kWh', cost, emissionsKg, factorVersion: 'DESNZ-2025' },
    sign,
  );
  return invoiceId;
}

interface UtilityTotals {
  consumption: number;
  cost: number;
  emissionsKg: number;
}
interface Totals {
  utilities: Partial<Record<UtilityType, UtilityTotals>>;
  cost?: number;
  emissionsKg: number;
}

const get = (path: string, token = owner) => api({ method: 'GET', path, token });
const totalsOf = async (path: string, token = owner): Promise<Totals> => {
  const res = await get(path, token);
  expect(res.status).toBe(200);
  return res.body.totals as Totals;
};
const portfolio = async (name: string, assetIds: string[]) =>
  created(api, owner, '/asset-groups', { name, assetIds });

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Portfolio Estates Ltd' });
  for (const siteName of ['Aldgate', 'Temple', 'Hardman']) {
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
    });
  }
  for (const name of ['Aldgate electricity', 'Aldgate gas', 'Temple electricity', 'Hardman electricity']) {
    const [siteName = '', type] = name.split(' ');
    account[name] = await created(api, owner, '/accounts', { type, assetId: site[siteName], name });
  }
  await bill('Aldgate electricity', 'electricity', '2025-01', 1000, 250, 207);
  await bill('Aldgate gas', 'gas', '2025-01', 5000, 400, 915);
  await bill('Temple electricity', 'electricity', '2025-01', 2000, 500, 414);
  await bill('Temple electricity', 'electricity', '2025-02', 1500, 375, 310.5);
  await bill('Hardman electricity', 'electricity', '2025-02', 3000, 750, 621);
});

afterAll(async () => w?.stop());

const electricity = (consumption: number, cost: number, emissionsKg: number) => ({
  utilities: { electricity: { consumption, unit: 'kWh', cost, emissionsKg, unitRate: cost / consumption } },
  cost,
  emissionsKg,
});

describe("a portfolio's own roll-up", () => {
  it('moves every portfolio holding a site by the same bill, once however often the bill is applied', async () => {
    const east = await portfolio('East', [site.Aldgate as string, site.Temple as string]);
    const city = await portfolio('City', [site.Temple as string, site.Hardman as string]);
    const path = (id: string) => `/asset-groups/${id}/analytics?${Q}&accountType=electricity`;
    expect(await totalsOf(path(east))).toEqual(electricity(4500, 1125, 931.5));
    expect(await totalsOf(path(city))).toEqual(electricity(6500, 1625, 1345.5));

    const invoiceId = await bill('Temple electricity', 'electricity', '2025-03', 400, 100, 82.8);
    // A retried confirmation counts nothing twice.
    await bill('Temple electricity', 'electricity', '2025-03', 400, 100, 82.8, invoiceId);
    expect(await totalsOf(path(east))).toEqual(electricity(4900, 1225, 1014.3));
    expect(await totalsOf(path(city))).toEqual(electricity(6900, 1725, 1428.3));

    // Withdrawn, it leaves both as they were.
    await bill('Temple electricity', 'electricity', '2025-03', 400, 100, 82.8, invoiceId, -1);
    expect(await totalsOf(path(east))).toEqual(electricity(4500, 1125, 931.5));
    expect(await totalsOf(path(city))).toEqual(electricity(6500, 1625, 1345.5));
  });

  it("adds a joining site's history and takes a leaving site's away", async () => {
    const group = await portfolio('Moving', [site.Temple as string]);
    const path = `/asset-groups/${group}/analytics?${Q}&accountType=electricity`;
    expect(await totalsOf(path)).toEqual(electricity(3500, 875, 724.5));

    const join = await api({
      method: 'PUT',
      path: `/asset-groups/${group}/asset/${site.Hardman}`,
      token: owner,
    });
    expect(join.status).toBe(200);
    expect(await totalsOf(path)).toEqual(electricity(6500, 1625, 1345.5));
    // Adding it again adds nothing more.
    await api({ method: 'PUT', path: `/asset-groups/${group}/assets/${site.Hardman}`, token: owner });
    expect(await totalsOf(path)).toEqual(electricity(6500, 1625, 1345.5));

    const leave = await api({
      method: 'DELETE',
      path: `/asset-groups/${group}/asset/${site.Temple}`,
      token: owner,
    });
    expect(leave.status).toBe(200);
    expect(await totalsOf(path)).toEqual(electricity(3000, 750, 621));

    // A bill on the site that left no longer reaches the portfolio; one on the site that joined does.
    const gone = await bill('Temple electricity', 'electricity', '2025-03', 10, 2.5, 2.07);
    const joined = await bill('Hardman electricity', 'electricity', '2025-03', 100, 25, 20.7);
    expect(await totalsOf(path)).toEqual(electricity(3100, 775, 641.7));
    await bill('Temple electricity', 'electricity', '2025-03', 10, 2.5, 2.07, gone, -1);
    await bill('Hardman electricity', 'electricity', '2025-03', 100, 25, 20.7, joined, -1);

    const patch = await api({
      method: 'PATCH',
      path: `/asset-groups/${group}`,
      token: owner,
      body: { assetIds: [site.Aldgate] },
    });
    expect(patch.status).toBe(200);
    expect(await totalsOf(path)).toEqual(electricity(1000, 250, 207));
  });

  it("answers what its sites' answers add up to, and a rebuild leaves it so", async () => {
    const ids = [site.Aldgate as string, site.Temple as string, site.Hardman as string];
    const group = await portfolio('All three', ids);
    const res = await get(`/analytics/v2/consumption?${Q}&assetGroupId=${group}&dateBreakdown=true`);
    expect(res.status).toBe(200);
    const whole = res.body as { totals: Totals; buckets: Totals[] };
    const sum = {
      electricity: { consumption: 0, cost: 0, emissionsKg: 0 },
      gas: { consumption: 0, cost: 0, emissionsKg: 0 },
    };
    for (const id of ids) {
      const t = await totalsOf(`/assets/${id}/analytics?${Q}`);
      for (const u of ['electricity', 'gas'] as const) {
        sum[u].consumption += t.utilities[u]?.consumption ?? 0;
        sum[u].cost += t.utilities[u]?.cost ?? 0;
        sum[u].emissionsKg += t.utilities[u]?.emissionsKg ?? 0;
      }
    }
    for (const u of ['electricity', 'gas'] as const) {
      expect(whole.totals.utilities[u]).toMatchObject({
        consumption: sum[u].consumption,
        cost: sum[u].cost,
        emissionsKg: expect.closeTo(sum[u].emissionsKg, 6),
      });
    }
    expect(whole.totals.utilities.electricity?.consumption).toBe(7500);
    expect(whole.totals.utilities.gas?.consumption).toBe(5000);
    // The month by month figures hold the same sum.
    const months = whole.buckets.map((b) => b.emissionsKg);
    expect(months.reduce((n, v) => n + v, 0)).toBeCloseTo(whole.totals.emissionsKg, 6);

    const before = await listPortfolioRollups(w.demoId, group, '2025-01', '2025-12');
    expect(await rebuildPortfolioRollups(w.demoId, group, ids)).toEqual({ sites: 3, changed: 0 });
    expect(await listPortfolioRollups(w.demoId, group, '2025-01', '2025-12')).toEqual(before);
  });

  it('gives a user granted two of the sites those two only, and hides a portfolio they cannot read whole', async () => {
    const token = await w.addUser('two-of-three', ['asset_user'], {
      assets: { read: [site.Aldgate as string, site.Temple as string], write: [] },
    });
    const all = await portfolio('Three sites', [
      site.Aldgate as string,
      site.Temple as string,
      site.Hardman as string,
    ]);
    const pair = await portfolio('Their two', [site.Aldgate as string, site.Temple as string]);
    // Their whole view: Aldgate and Temple, never Hardman's 3000 kWh.
    const theirs = await get(`/analytics/v2/consumption?${Q}&accountType=electricity`, token);
    expect(theirs.body.totals).toEqual(electricity(4500, 1125, 931.5));
    expect((await get(`/asset-groups/${all}/analytics?${Q}`, token)).status).toBe(404);
    expect((await get(`/analytics/v2/consumption?${Q}&assetGroupId=${all}`, token)).status).toBe(404);
    const res = await get(`/asset-groups/${pair}/analytics?${Q}&accountType=electricity`, token);
    expect(res.status).toBe(200);
    expect(res.body.scope).toMatchObject({ type: 'portfolio', id: pair, sites: 2 });
    expect(res.body.totals).toEqual(electricity(4500, 1125, 931.5));
    const bySite = await get(`/asset-groups/${pair}/analytics?${Q}&id=asset-consumption`, token);
    expect((bySite.body.assets as { _id: string }[]).map((a) => a._id).sort()).toEqual(
      [site.Aldgate, site.Temple].sort(),
    );
  });
});
