import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { updateRaw } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { putInvoice } from '../../functions/invoices/invoice-repository.ts';
import { addDays, addMonths } from '../../shared/analytics/index.ts';
import type { DashboardData, WidgetData } from '../../shared/schemas/dashboard-widgets.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The home dashboard over bills written as the bill pipeline writes them, in the two months before this
 * one (inside every widget's default window, the twelve full months before this one):
 *
 *   Aldgate electricity  1000 kWh £250 200 kg (two months ago)
 *   Temple electricity   2000 kWh £500 400 kg (last month)
 *   Hardman electricity  3000 kWh £750 600 kg (last month)
 *
 * Company emissions 1.2 t, cost £1500; Aldgate and Temple together 0.6 t.
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};

const today = new Date().toISOString().slice(0, 10);
const thisMonth = `${today.slice(0, 7)}-01`;
const monthsAgo = (n: number) => addMonths(thisMonth, -n).slice(0, 7);

async function bill(name: string, month: string, consumption: number, cost: number, emissionsKg: number) {
  const [siteName = ''] = name.split(' ');
  await applyInvoiceContribution(
    w.demoId,
    account[name] as string,
    site[siteName],
    newId(),
    {
      month,
      utilityType: 'electricity',
      consumption,
      unit: 'kWh',
      cost,
      emissionsKg,
      factorVersion: 'DESNZ-2025',
    },
    1,
  );
}

const get = (path: string, token = owner) => api({ method: 'GET', path, token });

async function home(token = owner): Promise<DashboardData> {
  const res = await get('/users/me/dashboard-data', token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as DashboardData;
}

async function widgetOf(token: string, type: string) {
  const data = await home(token);
  const widget = data.widgets.find((x) => x.settings.type === type);
  if (!widget) throw new Error(`No ${type} widget`);
  return { dashboardId: data.dashboard._id, widgetId: widget._id };
}

async function widgetData(token: string, type: string) {
  const { dashboardId, widgetId } = await widgetOf(token, type);
  return get(`/dashboards/${dashboardId}/widgets/${widgetId}/data`, token);
}

async function setCompanySettings(settings: Record<string, unknown>) {
  await updateRaw(keys.collection({}, 'companies'), w.demoId, {
    settings: { isDemo: true, showLogo: false, ...settings },
  });
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Aldgate', 'Temple', 'Hardman']) {
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
    });
    const name = `${siteName} electricity`;
    account[name] = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: site[siteName],
      name,
    });
  }
  await bill('Aldgate electricity', monthsAgo(2), 1000, 250, 200);
  await bill('Temple electricity', monthsAgo(1), 2000, 500, 400);
  await bill('Hardman electricity', monthsAgo(1), 3000, 750, 600);
});

afterAll(async () => w?.stop());

describe('GET /users/me/dashboard-data', () => {
  it('makes one default dashboard with its widgets, even for concurrent first calls', async () => {
    const token = await w.addUser('first-visit', ['company_user']);
    const answers = await Promise.all(Array.from({ length: 6 }, () => home(token)));
    const ids = new Set(answers.map((a) => a.dashboard._id));
    expect(ids.size).toBe(1);
    const [first] = answers;
    expect(first?.widgets.map((x) => x.settings.type)).toEqual([
      'emissions',
      'consumption',
      'cost',
      'top-sites',
      'data-quality',
      'bill-validation',
    ]);
    for (const a of answers) expect(a.widgets.map((x) => x._id)).toEqual(first?.widgets.map((x) => x._id));
    const stored = await get(`/widgets?dashboardId=${first?.dashboard._id}&limit=100`, token);
    expect(stored.body.total).toBe(6);
    const dashboards = await get('/dashboards?limit=100', token);
    const mine = (dashboards.body.data as { createdBy: string }[]).filter(
      (d) => d.createdBy === 'first-visit',
    );
    expect(mine).toHaveLength(1);
  });

  it('keeps what the user changed: a removed widget stays removed, a new order stays', async () => {
    const token = await w.addUser('arranger', ['company_user']);
    const before = await home(token);
    const [a, b, c] = before.widgets;
    expect((await api({ method: 'DELETE', path: `/widgets/${a?._id}`, token })).status).toBe(200);
    await api({
      method: 'PATCH',
      path: `/widgets/${c?._id}`,
      token,
      body: { position: { x: 0, y: -1, w: 1, h: 1 } },
    });
    const after = await home(token);
    expect(after.widgets).toHaveLength(5);
    expect(after.widgets.map((x) => x._id).slice(0, 2)).toEqual([c?._id, b?._id]);
  });

  it('lists a widget stored with fields of the wrong kind as one it can show, keeping the settings it does not read', async () => {
    const token = await w.addUser('older-widgets', ['company_user']);
    const [first, second, third] = (await home(token)).widgets;
    const widgets = keys.collection({ companyId: w.demoId }, 'widgets');
    // As an older version, an import or a hand edit may have left them.
    await updateRaw(widgets, String(first?._id), { position: { x: 0, y: 'top', w: 1, h: 1 } });
    await updateRaw(widgets, String(second?._id), { settings: null });
    await updateRaw(widgets, String(third?._id), {
      settings: {
        type: 7,
        selectedId: site.Temple,
        source: 'asset',
        utilityType: 'steam',
        metric: ['cost'],
        customData: 'Board view',
        granularity: 'monthly',
      },
    });
    const after = await home(token);
    expect(after.widgets).toHaveLength(6);
    const byId = new Map(after.widgets.map((x) => [x._id, x]));
    // No place: after the placed widgets.
    expect(after.widgets.at(-1)?._id).toBe(first?._id);
    expect(byId.get(String(first?._id))?.position).toBeUndefined();
    expect(byId.get(String(second?._id))?.settings).toEqual({ type: 'consumption' });
    expect(byId.get(String(third?._id))?.settings).toEqual({
      type: 'consumption',
      selectedId: site.Temple,
      source: 'asset',
      granularity: 'monthly',
    });
    expect(byId.get(String(third?._id))?.dashboardId).toBe(after.dashboard._id);
  });
});

describe('GET /dashboards/{dashboardId}/widgets/{widgetId}/data', () => {
  it("gives the company's figures with the change against the same days before", async () => {
    const res = await widgetData(owner, 'emissions');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body as unknown as WidgetData;
    expect(data).toMatchObject({
      type: 'emissions',
      title: 'Emissions',
      link: '/analytics/emissions',
      restricted: false,
      window: { startDate: addMonths(thisMonth, -12), endDate: addDays(thisMonth, -1) },
      headline: { value: 1.2, unit: 'tCO2e', previous: 0 },
      empty: false,
    });
    expect(data.series).toHaveLength(12);
    expect(data.series?.at(-1)).toMatchObject({ value: 1 });
    expect(data.series?.at(-2)).toMatchObject({ value: 0.2 });
    const cost = (await widgetData(owner, 'cost')).body as unknown as WidgetData;
    expect(cost.headline).toMatchObject({ value: 1500, unit: 'GBP' });
    const top = (await widgetData(owner, 'top-sites')).body as unknown as WidgetData;
    expect(top.rows?.map((r) => [r.label, r.value])).toEqual([
      ['Hardman', 0.6],
      ['Temple', 0.4],
      ['Aldgate', 0.2],
    ]);
  });

  it("answers 'Widget not found' for an unknown widget and for a widget of another user's dashboard", async () => {
    const mine = await home();
    const unknown = await get(`/dashboards/${mine.dashboard._id}/widgets/${newId()}/data`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Widget not found');
    expect((await get(`/dashboards/${mine.dashboard._id}/widgets/not-an-id/data`)).body.message).toBe(
      'Widget not found',
    );
    const other = await w.addUser('neighbour', ['company_user']);
    const theirs = await widgetOf(other, 'emissions');
    const res = await get(`/dashboards/${theirs.dashboardId}/widgets/${theirs.widgetId}/data`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Widget not found');
    // Their own widget on someone else's dashboard path is not found either.
    const crossed = await get(`/dashboards/${mine.dashboard._id}/widgets/${theirs.widgetId}/data`, other);
    expect(crossed.body.message).toBe('Widget not found');
  });

  it("answers 'No permissions provided' to a user who may read nothing", async () => {
    const token = await w.addUser('no-grants', ['asset_user']);
    const res = await widgetData(token, 'emissions');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('No permissions provided');
  });

  it("answers 'You do not have access to this data' for a site outside the user's grants", async () => {
    const token = await w.addUser('grant-limited', ['asset_user'], {
      assets: { read: [site.Aldgate as string, site.Temple as string], write: [] },
    });
    const { dashboardId, widgetId } = await widgetOf(token, 'emissions');
    const patch = (selectedId: string) =>
      api({
        method: 'PATCH',
        path: `/widgets/${widgetId}`,
        token,
        body: { settings: { type: 'emissions', selectedId, source: 'asset' } },
      });
    expect((await patch(site.Hardman as string)).status).toBe(200);
    const res = await get(`/dashboards/${dashboardId}/widgets/${widgetId}/data`, token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have access to this data');
    await patch(site.Temple as string);
    const own = await get(`/dashboards/${dashboardId}/widgets/${widgetId}/data`, token);
    expect(own.status).toBe(200);
    expect(own.body.headline).toMatchObject({ value: 0.4 });
  });

  it('gives a user with two site grants the totals of those two sites only', async () => {
    const token = await w.addUser('two-sites', ['asset_user'], {
      assets: { read: [site.Aldgate as string, site.Temple as string], write: [] },
    });
    const emissions = (await widgetData(token, 'emissions')).body as unknown as WidgetData;
    expect(emissions).toMatchObject({ restricted: true, headline: { value: 0.6 } });
    const cost = (await widgetData(token, 'cost')).body as unknown as WidgetData;
    expect(cost.headline?.value).toBe(750);
    const top = (await widgetData(token, 'top-sites')).body as unknown as WidgetData;
    expect(top.rows?.map((r) => r.label)).toEqual(['Temple', 'Aldgate']);
  });

  it('leaves every cost out when the company hides cost data', async () => {
    await setCompanySettings({ hideCostData: true });
    try {
      expect((await home()).hideCostData).toBe(true);
      const cost = await widgetData(owner, 'cost');
      expect(cost.status).toBe(200);
      expect(cost.body).toMatchObject({ costHidden: true, empty: true });
      expect(cost.body.headline).toBeUndefined();
      expect(cost.body.series).toBeUndefined();
      const { dashboardId, widgetId } = await widgetOf(owner, 'top-sites');
      await api({
        method: 'PATCH',
        path: `/widgets/${widgetId}`,
        token: owner,
        body: { settings: { type: 'top-sites', metric: 'cost' } },
      });
      const top = await get(`/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(top.body).toMatchObject({ costHidden: true, headline: { unit: 'tCO2e' } });
      expect(JSON.stringify(top.body)).not.toContain('GBP');
      expect(JSON.stringify((await widgetData(owner, 'emissions')).body)).not.toContain('GBP');
    } finally {
      await setCompanySettings({});
    }
  });
});

describe('bills: the data-quality and bill-validation widgets, and a meter page', () => {
  const billOf = async (name: string, start: string, end: string, status: string, extra = {}) =>
    putInvoice(w.demoId, {
      _id: newId(),
      accountId: account[name],
      status: 'captured',
      completed: false,
      isCreditNote: false,
      validationStatus: status,
      values: { startDate: start, endDate: end, consumption: 300, consumptionUnit: 'kWh', ...extra },
    });

  beforeAll(async () => {
    const m = (n: number) => addMonths(thisMonth, -n);
    // Temple: three months billed with a 10-day gap, then an overlap of 5 days; the last bill estimated.
    await billOf('Temple electricity', m(4), addDays(m(3), -1), 'passed');
    await billOf('Temple electricity', addDays(m(3), 10), addDays(m(2), -1), 'failed');
    await billOf('Temple electricity', addDays(m(2), -5), addDays(m(1), -1), 'warning', {
      readType: 'estimated',
    });
    await billOf('Hardman electricity', m(2), addDays(m(1), -1), 'failed');
  });

  it('shows the gaps, overlaps and estimates of one meter', async () => {
    const start = addMonths(thisMonth, -4);
    const end = addDays(addMonths(thisMonth, -1), -1);
    const res = await get(
      `/analytics/meters/${account['Temple electricity']}/data-quality?startDate=${start}&endDate=${end}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ bills: 3, gapDays: 10, overlapDays: 5, unit: 'kWh' });
    expect(res.body.gaps).toEqual([
      { start: addMonths(thisMonth, -3), end: addDays(addMonths(thisMonth, -3), 9), days: 10 },
    ]);
    expect((res.body.estimatedReadBills as string[]).length).toBe(1);
    const garbled = await get(
      `/analytics/meters/${account['Temple electricity']}/data-quality?startDate=soon`,
    );
    expect(garbled.status).toBe(400);
    expect(garbled.body.formMessages).toHaveProperty('startDate');
    const limited = await w.addUser('aldgate-only', ['asset_user'], {
      assets: { read: [site.Aldgate as string], write: [] },
    });
    expect(
      (await get(`/analytics/meters/${account['Temple electricity']}/data-quality`, limited)).status,
    ).toBe(404);
  });

  it("counts the bills awaiting review by status, for the caller's meters only", async () => {
    const all = (await widgetData(owner, 'bill-validation')).body as unknown as WidgetData;
    expect(all.headline).toMatchObject({ value: 4 });
    expect(all.series).toEqual([
      { label: 'failed', value: 2 },
      { label: 'error', value: 0 },
      { label: 'warning', value: 1 },
      { label: 'pending', value: 0 },
      { label: 'passed', value: 1 },
    ]);
    const token = await w.addUser('temple-only', ['asset_user'], {
      assets: { read: [site.Temple as string], write: [] },
    });
    const mine = (await widgetData(token, 'bill-validation')).body as unknown as WidgetData;
    expect(mine.headline).toMatchObject({ value: 3 });
    const quality = (await widgetData(token, 'data-quality')).body as unknown as WidgetData;
    expect(quality.rows?.map((r) => r.id)).toEqual([account['Temple electricity']]);
    expect(quality.series?.find((s) => s.label === 'With overlaps')?.value).toBe(1);
  });
});

describe("a member's home dashboard and its widgets", () => {
  it('are theirs alone: another member neither lists, reads, changes nor adds to them', async () => {
    const mine = await home();
    const [widget] = mine.widgets;
    const other = await w.addUser('site-reader', ['asset_user'], {
      assets: { read: [String(site.Hardman)], write: [] },
    });
    const theirs = await home(other);

    // Each lists their own board and its widgets only.
    const boards = await get('/dashboards?limit=100', other);
    expect((boards.body.data as { _id: string }[]).map((d) => d._id)).toEqual([theirs.dashboard._id]);
    const widgets = await get('/widgets?limit=1000', other);
    const boardsOfWidgets = new Set(
      (widgets.body.data as { dashboardId: string }[]).map((x) => x.dashboardId),
    );
    expect([...boardsOfWidgets]).toEqual([theirs.dashboard._id]);
    expect(
      ((await get(`/widgets?dashboardId=${mine.dashboard._id}`, other)).body.data as unknown[]).length,
    ).toBe(0);

    // The owner's board and widgets are not found to them, to read, change or remove.
    expect((await get(`/dashboards/${mine.dashboard._id}`, other)).status).toBe(404);
    expect((await get(`/widgets/${widget?._id}`, other)).status).toBe(404);
    const moved = await api({
      method: 'PATCH',
      path: `/widgets/${widget?._id}`,
      token: other,
      body: { position: { x: 5, y: 5, w: 1, h: 1 } },
    });
    expect(moved.status).toBe(404);
    const removed = await api({ method: 'DELETE', path: `/widgets/${widget?._id}`, token: other });
    expect(removed.status).toBe(404);
    expect(
      (await api({ method: 'DELETE', path: `/dashboards/${mine.dashboard._id}`, token: other })).status,
    ).toBe(404);

    // Nor can they put a widget on the owner's board.
    const added = await api({
      method: 'POST',
      path: '/widgets',
      token: other,
      body: { dashboardId: mine.dashboard._id, settings: { type: 'emissions' } },
    });
    expect(added.status).toBe(400);
    expect(added.body.formMessages).toEqual({ dashboardId: 'No such dashboard was found' });

    // The owner's home is as it was.
    const after = await home();
    expect(after.widgets.map((x) => [x._id, x.position])).toEqual(
      mine.widgets.map((x) => [x._id, x.position]),
    );
  });
});
