import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { declaredRef, deleteRaw, putItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { httpEvent, lambdaContext } from '../support/http-events.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Targets worked by hand. Y is the current year: the baseline year is Y−3, the year judged Y−1.
 *
 *   Aldgate  entity Offices, 1000 m²: electricity 10,000 kWh in Y−3, 9,500 in Y−1
 *   Temple   entity Offices, no floor area: 5,000 kWh in Y−3, 5,200 in Y−1
 *   Hardman  entity Retail: no figures
 *
 * A company energy target of 40% from Y−3 to Y+5 on a straight path expects 10% off by Y−1:
 * 15,000 × 0.9 = 13,500 against 14,700 actual, 1,200 kWh (8.89%) over; Temple makes 5,200 − 4,500 = 700
 * of it, Aldgate 9,500 − 9,000 = 500.
 */
const Y = new Date().getUTCFullYear();
const BASE = Y - 3;

let w: RegisterWorld;
let api: Api;
let owner: string;
let aldgateReader: string;
let aldgateWriter: string;
let officesReader: string;
let outsider: string;
const site: Record<string, string> = {};
const entity: Record<string, string> = {};

const call = (method: string, p: string, token: string, body?: unknown) =>
  api({ method, path: p, token, body });

const energyTarget = (over: Record<string, unknown> = {}) => ({
  name: 'Company energy',
  scope: 'company',
  measure: 'energy',
  baselineYear: BASE,
  targetYear: Y + 5,
  reductionPercent: 40,
  ...over,
});

async function bill(name: string, month: string, kwh: number) {
  const meter = await created(api, owner, '/accounts', { type: 'electricity', assetId: site[name] });
  await applyInvoiceContribution(
    w.demoId,
    meter,
    site[name],
    `bill-${name}-${month}`,
    {
      month,
      utilityType: 'electricity',
      consumption: kwh,
      unit: 'kWh',
      cost: kwh / 5,
      emissionsKg: kwh / 5,
      factorVersion: 'DESNZ-2025',
    },
    1,
  );
}

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
async function feed(token: string) {
  const m = (await import(path.resolve(import.meta.dirname, '../../functions/handlers/http/targets.ts'))) as {
    handler: Handler;
  };
  const res = await m.handler(
    httpEvent({ method: 'GET', path: `/calendar/feed.ics?token=${encodeURIComponent(token)}` }),
    lambdaContext('targets'),
  );
  return {
    status: res.statusCode,
    type: String(res.headers?.['content-type'] ?? ''),
    text: String(res.body ?? ''),
  };
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  entity.Offices = await created(api, owner, '/entities', { legalName: 'Offices Ltd' });
  entity.Retail = await created(api, owner, '/entities', { legalName: 'Retail Ltd' });
  site.Aldgate = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    entityId: entity.Offices,
    floorArea: 1000,
    epc: {
      certificateId: 'cert-1',
      kind: 'non-domestic',
      rating: 90,
      band: 'D',
      lodgementDate: `${Y - 9}-06-01`,
    },
  });
  site.Temple = await created(api, owner, '/assets', { siteName: 'Temple', entityId: entity.Offices });
  site.Hardman = await created(api, owner, '/assets', { siteName: 'Hardman', entityId: entity.Retail });
  await bill('Aldgate', `${BASE}-01`, 10_000);
  await bill('Aldgate', `${Y - 1}-01`, 9_500);
  await bill('Temple', `${BASE}-01`, 5_000);
  await bill('Temple', `${Y - 1}-01`, 5_200);
  await created(api, owner, `/assets/${site.Aldgate}/tenants`, {
    name: 'Acme Law',
    leaseStart: `${Y - 2}-01-01`,
    leaseEnd: `${Y + 1}-03-31`,
    leaseBreak: `${Y + 1}-01-31`,
  });
  aldgateReader = await w.addUser('aldgate-reader', ['asset_user'], {
    assets: { read: [site.Aldgate as string], write: [] },
  });
  aldgateWriter = await w.addUser('aldgate-writer', ['asset_user'], {
    assets: { read: [], write: [site.Aldgate as string] },
  });
  officesReader = await w.addUser('offices-reader', ['entity_user'], {
    entities: { read: [entity.Offices as string], write: [] },
  });
});

afterAll(async () => w?.stop());

const ids: Record<string, string> = {};

describe('managing targets', () => {
  it('answers a bad target with a message per field', async () => {
    const res = await call('POST', '/targets', owner, {
      name: '',
      scope: 'site',
      measure: 'energy',
      baselineYear: BASE,
      targetYear: BASE,
      reductionPercent: 0,
      milestones: [{ year: Y + 9, reductionPercent: 10 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({
      name: 'This field is required',
      reductionPercent: 'Must be more than 0',
    });
    const rules = await call(
      'POST',
      '/targets',
      owner,
      energyTarget({ scope: 'site', targetYear: BASE - 1 }),
    );
    expect(rules.status).toBe(400);
    expect(rules.body.formMessages).toEqual({
      scopeId: 'Choose what the target covers',
      targetYear: 'Must be after the baseline year',
    });
  });

  it('creates targets on the company, an entity and a site', async () => {
    const company = await call('POST', '/targets', owner, energyTarget());
    expect(company.status).toBe(201);
    ids.company = String(company.body._id);
    ids.offices = await created(
      api,
      owner,
      '/targets',
      energyTarget({
        name: 'Offices intensity',
        scope: 'entity',
        scopeId: entity.Offices,
        normalisation: 'per-m2',
      }),
    );
    ids.aldgate = await created(
      api,
      owner,
      '/targets',
      energyTarget({ name: 'Aldgate', scope: 'site', scopeId: site.Aldgate }),
    );
    ids.hardman = await created(
      api,
      owner,
      '/targets',
      energyTarget({ name: 'Hardman', scope: 'site', scopeId: site.Hardman }),
    );
    const list = await call('GET', '/targets', owner);
    expect(
      (list.body.data as { name: string; scopeName: string }[]).map((t) => [t.name, t.scopeName]),
    ).toEqual([
      ['Aldgate', 'Aldgate'],
      ['Company energy', 'Whole company'],
      ['Hardman', 'Hardman'],
      ['Offices intensity', 'Offices Ltd'],
    ]);
  });

  it('edits a target, checking the rules on the whole of it', async () => {
    const bad = await call('PATCH', `/targets/${ids.hardman}`, owner, { targetYear: BASE });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toEqual({ targetYear: 'Must be after the baseline year' });
    const ok = await call('PATCH', `/targets/${ids.hardman}`, owner, {
      reductionPercent: 30,
      baselineOverride: 100,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ reductionPercent: 30, baselineOverride: 100, targetYear: Y + 5 });
  });

  it('shows granted users only the targets whose scope they may read', async () => {
    const names = async (token: string) =>
      ((await call('GET', '/targets', token)).body.data as { name: string }[]).map((t) => t.name);
    expect(await names(aldgateReader)).toEqual(['Aldgate']);
    expect(await names(officesReader)).toEqual(['Aldgate', 'Offices intensity']);
    expect((await call('GET', `/targets/${ids.company}`, aldgateReader)).status).toBe(404);
    expect((await call('GET', `/targets/${ids.aldgate}`, aldgateReader)).status).toBe(200);
    expect((await call('GET', `/targets/${ids.aldgate}`, outsider)).status).toBe(404);
  });

  it('lets only those who may change the scope change its targets', async () => {
    expect(
      (await call('PATCH', `/targets/${ids.aldgate}`, aldgateReader, { reductionPercent: 10 })).status,
    ).toBe(403);
    expect((await call('DELETE', `/targets/${ids.aldgate}`, officesReader)).status).toBe(403);
    expect(
      (await call('PATCH', `/targets/${ids.company}`, aldgateWriter, { reductionPercent: 10 })).status,
    ).toBe(404);
    expect((await call('POST', '/targets', aldgateWriter, energyTarget())).status).toBe(403);
    const hidden = await call(
      'POST',
      '/targets',
      aldgateWriter,
      energyTarget({ scope: 'site', scopeId: site.Temple }),
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.formMessages).toEqual({ scopeId: 'No such site' });
    // Moving one's own target onto a site out of reach is refused the same way.
    const own = await created(
      api,
      aldgateWriter,
      '/targets',
      energyTarget({ name: 'Mine', scope: 'site', scopeId: site.Aldgate }),
    );
    const moved = await call('PATCH', `/targets/${own}`, aldgateWriter, { scopeId: site.Temple });
    expect(moved.status).toBe(400);
    expect((await call('DELETE', `/targets/${own}`, aldgateWriter)).status).toBe(200);
    expect((await call('GET', `/targets/${own}`, aldgateWriter)).status).toBe(404);
    expect((await call('PUT', `/targets/${own}`, aldgateWriter)).status).toBe(200);
    expect((await call('DELETE', `/targets/${own}`, aldgateWriter)).status).toBe(200);
    const bulk = await call('POST', '/targets/bulk', aldgateWriter, [
      energyTarget({ name: 'One', scope: 'site', scopeId: site.Aldgate }),
      energyTarget({ name: 'Two' }),
    ]);
    expect(bulk.status).toBe(403);
    expect((await call('GET', '/targets', aldgateWriter)).body.total).toBe(1);
  });

  it('offers the form only the scopes the caller may change', async () => {
    const scopes = await call('GET', '/targets/scopes', aldgateWriter);
    expect(scopes.body).toEqual({
      company: false,
      entities: [],
      portfolios: [],
      sites: [{ _id: site.Aldgate, name: 'Aldgate' }],
    });
    const all = await call('GET', '/targets/scopes', owner);
    expect(all.body.company).toBe(true);
    expect((all.body.sites as unknown[]).length).toBe(3);
  });
});

interface Row {
  target: { _id: string };
  status: string;
  unit: string;
  baseline: { computed: number | null; value: number | null };
  progress?: { actual: number; expected: number; gap: number; gapPercent: number };
  sitesWithoutFloorArea: string[];
  contributions: { siteName?: string; gap: number }[];
}

describe('bad input', () => {
  it('is refused with 4xx on every targets and calendar call, never 500', async () => {
    const bodies: unknown[] = [
      null,
      [],
      'x',
      42,
      { name: {} },
      { milestones: 'x' },
      { milestones: [null] },
      { scope: 'moon' },
    ];
    const statuses: number[] = [];
    for (const body of bodies) {
      statuses.push((await call('POST', '/targets', owner, body)).status);
      statuses.push((await call('POST', '/targets/bulk', owner, body)).status);
      statuses.push((await call('PATCH', `/targets/${ids.aldgate}`, owner, body)).status);
    }
    for (const q of ['months=abc', 'scenario=x', 'window=x', `assetId=${'k'.repeat(3000)}`, 'assetId=..%2Fx'])
      statuses.push((await call('GET', `/calendar/events?${q}`, owner)).status);
    for (const p of ['/targets/x', `/targets/${'f'.repeat(2000)}`, '/targets/search?query=%00'])
      statuses.push((await call('GET', p, owner)).status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(20);
    expect((await call('GET', `/targets/${ids.aldgate}`, owner)).body.reductionPercent).toBe(40);
  });
});

describe('progress and notifications', () => {
  let rows: Row[];

  it('judges the company target against its straight path, naming the sites behind the gap', async () => {
    const res = await call('GET', '/targets/progress', owner);
    expect(res.status).toBe(200);
    rows = res.body.data as Row[];
    const company = rows.find((r) => r.target._id === ids.company) as Row;
    expect(company.status).toBe('off-track');
    expect(company.baseline.computed).toBe(15_000);
    expect(company.progress?.expected).toBeCloseTo(13_500, 6);
    expect(company.progress?.actual).toBeCloseTo(14_700, 6);
    expect(company.progress?.gap).toBeCloseTo(1_200, 6);
    expect(company.progress?.gapPercent).toBeCloseTo(8.8889, 3);
    expect(company.contributions.map((c) => [c.siteName, Math.round(c.gap)])).toEqual([
      ['Temple', 700],
      ['Aldgate', 500],
    ]);
  });

  it('measures a per-m² target on the sites with a floor area, naming the one without', async () => {
    const offices = rows.find((r) => r.target._id === ids.offices) as Row;
    expect(offices.unit).toBe('kWh/m²');
    expect(offices.baseline.computed).toBe(10);
    expect(offices.progress?.actual).toBeCloseTo(9.5, 9);
    expect(offices.progress?.expected).toBeCloseTo(9, 9);
    expect(offices.sitesWithoutFloorArea).toEqual([site.Temple]);
    const hardman = rows.find((r) => r.target._id === ids.hardman) as Row;
    expect(hardman.status).toBe('no-data');
  });

  it('tells each reader of the scope once when a target goes off track', async () => {
    const notices = async (token: string) =>
      (
        (await call('GET', '/users/me/notifications?limit=50', token)).body.data as {
          kind?: string;
          content: string;
        }[]
      )
        .filter((n) => n.kind === 'target-off-track')
        .map((n) => n.content)
        .sort();
    const ownerNotices = await notices(owner);
    expect(ownerNotices).toHaveLength(3);
    expect(
      ownerNotices.some((c) => c.startsWith('Target "Company energy" for Whole company is off track')),
    ).toBe(true);
    // The Aldgate reader hears of the Aldgate target only; the company's is not theirs to see.
    expect(await notices(aldgateReader)).toEqual([
      expect.stringMatching(/^Target "Aldgate" for Aldgate is off track: 9,500 kWh/),
    ]);
    expect(await notices(officesReader)).toHaveLength(2);
    // Computing again, by anyone, tells nobody twice.
    await call('GET', '/targets/progress', aldgateReader);
    await call('GET', '/targets/progress', owner);
    expect(await notices(owner)).toHaveLength(3);
  });

  it('judges every target daily too, telling of one nobody has looked at', async () => {
    const { checkAllTargets } = await import('../../functions/targets/index.ts');
    const { createLogger } = await import('../../functions/core/lib/logger.ts');
    const log = createLogger({ service: 'test', fn: 'targets-check' });
    await created(
      api,
      owner,
      '/targets',
      energyTarget({ name: 'Temple', scope: 'site', scopeId: site.Temple }),
    );
    const first = await checkAllTargets(log);
    expect(first).toMatchObject({ targets: 5, offTrackTold: 1 });
    expect((await checkAllTargets(log)).offTrackTold).toBe(0);
    const told = (await call('GET', '/users/me/notifications?limit=50', officesReader)).body.data as {
      kind?: string;
      content: string;
    }[];
    expect(
      told.filter((n) => n.kind === 'target-off-track' && n.content.startsWith('Target "Temple"')),
    ).toHaveLength(1);
  });
});

describe('the regulatory calendar', () => {
  it("gives a site's timeline: EPC expiry, MEES bands (proposed ones labelled) and its lease", async () => {
    const res = await call('GET', `/calendar/events?assetId=${site.Aldgate}&window=all`, owner);
    expect(res.status).toBe(200);
    const events = res.body.data as { kind: string; date: string; proposed: boolean; needsAction: boolean }[];
    expect(events.map((e) => [e.kind, e.date, e.proposed, e.needsAction])).toEqual(
      expect.arrayContaining([
        ['epc-expiry', `${Y + 1}-06-01`, false, true],
        ['mees', '2023-04-01', false, false],
        ['mees', '2027-04-01', true, true],
        ['mees', '2030-04-01', true, true],
        ['lease-end', `${Y + 1}-03-31`, false, true],
        ['lease-break', `${Y + 1}-01-31`, false, true],
      ]),
    );
    const inForce = await call(
      'GET',
      `/calendar/events?assetId=${site.Aldgate}&window=all&scenario=in-force`,
      owner,
    );
    expect((inForce.body.data as { proposed: boolean }[]).some((e) => e.proposed)).toBe(false);
  });

  it("shows the company's saved MEES scenario unless the page asks for the other", async () => {
    const asked = await call('GET', `/calendar/events?assetId=${site.Aldgate}&window=all`, owner);
    expect(asked.body.scenario).toBe('proposed');
    const saved = await call('PATCH', `/companies/${w.demoId}`, owner, {
      settings: { meesScenario: 'in-force' },
    });
    expect(saved.status).toBe(200);
    try {
      const plain = await call('GET', `/calendar/events?assetId=${site.Aldgate}&window=all`, owner);
      expect(plain.body.scenario).toBe('in-force');
      expect((plain.body.data as { proposed: boolean }[]).some((e) => e.proposed)).toBe(false);
      const proposed = await call(
        'GET',
        `/calendar/events?assetId=${site.Aldgate}&window=all&scenario=proposed`,
        owner,
      );
      expect((proposed.body.data as { proposed: boolean }[]).some((e) => e.proposed)).toBe(true);
      const refused = await call('PATCH', `/companies/${w.demoId}`, owner, {
        settings: { meesScenario: 'maybe' },
      });
      expect(refused.status).toBe(400);
    } finally {
      await call('PATCH', `/companies/${w.demoId}`, owner, { settings: { meesScenario: 'proposed' } });
    }
  });

  it('keeps to the sites the caller may read', async () => {
    expect((await call('GET', `/calendar/events?assetId=${site.Temple}`, aldgateReader)).status).toBe(404);
    const mine = await call('GET', '/calendar/events', aldgateReader);
    expect(new Set((mine.body.data as { assetId: string }[]).map((e) => e.assetId))).toEqual(
      new Set([site.Aldgate]),
    );
    const bad = await call('GET', '/calendar/events?months=999', owner);
    expect(bad.status).toBe(400);
  });

  it('serves a per-user iCalendar feed behind a secret the user can rotate', async () => {
    expect((await call('GET', '/calendar/feed', aldgateReader)).body).toEqual({ active: false });
    const made = await call('POST', '/calendar/feed/rotate', aldgateReader);
    expect(made.status).toBe(200);
    const token = String(made.body.token);
    expect((await call('GET', '/calendar/feed', aldgateReader)).body.active).toBe(true);

    const ics = await feed(token);
    expect(ics.status).toBe(200);
    expect(ics.type).toBe('text/calendar; charset=utf-8');
    const lines = ics.text.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain(`UID:epc-expiry-${site.Aldgate}-${Y + 1}-06-01@voltfolio`);
    expect(lines).toContain(`DTSTART;VALUE=DATE:${Y + 1}0601`);
    expect(ics.text).not.toContain(site.Temple as string);

    expect((await feed(`${token.slice(0, -2)}xx`)).status).toBe(401);
    const again = await call('POST', '/calendar/feed/rotate', aldgateReader);
    expect((await feed(token)).status).toBe(401);
    expect((await feed(String(again.body.token))).status).toBe(200);
  });

  it('reads sites stored before their fields were checked: no address, an EPC that is not a certificate', async () => {
    const ref = declaredRef('assets', { companyId: w.demoId });
    const old = {
      _id: newId(),
      companyId: w.demoId,
      siteName: 12,
      epc: 'D',
      epcRating: ' d ',
      address: 'Leeds',
    };
    await putItem(ref, old);
    try {
      const res = await call('GET', `/calendar/events?assetId=${old._id}&window=all`, owner);
      expect(res.status).toBe(200);
      const events = res.body.data as { kind: string; siteName: string; date: string }[];
      // The band typed on the site counts; a name that is not text reads as none.
      expect(events.filter((e) => e.kind === 'mees').map((e) => e.date)).toContain('2027-04-01');
      expect(new Set(events.map((e) => e.siteName))).toEqual(new Set(['Unnamed site']));
    } finally {
      await deleteRaw(ref.pk, old._id);
    }
  });
});
