import { randomBytes } from 'node:crypto';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addManyToRollups,
  applyInvoiceContribution,
  applyRestatementToSite,
} from '../../functions/accounts/index.ts';
import {
  keepSiteYears,
  readKeptSiteYears,
} from '../../functions/analytics/analytics-kept-site-years-repository.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import {
  JOURNAL_MAX_KEYS,
  moveChangeMarks,
  WRITE_DEAD_AFTER_MS,
} from '../../functions/core/data/change-marks.ts';
import { handler as analyticsWorker } from '../../functions/handlers/queue/restatements.ts';
import { createUser } from '../support/api-fixture.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';
import { type Api, created } from './register-support.ts';

/**
 * The CRREM table of a company is answered from one kept copy of every site's fields and energy years,
 * not from an item per site and per site-year. The answer must be the one a fresh read gives, and every
 * change of what it is made from (a bill, an import, a restatement, a site's floor area, a site deleted
 * or added) must show in the very next answer. The copy is kept in parts (the sites' fields, each year's
 * figures): a bill in one year makes that year's part again and leaves the others as they were, from the
 * sites the bill wrote alone (read again), not from every site's year.
 *
 * One pathway, United Kingdom offices: carbon 60 kg/m² in 2020 falling 2 a year, energy 200 kWh/m² falling
 * 5 a year. In each of the last two whole years:
 *   Aldgate  Office, 1000 m², electricity 10,000 kWh and 4,000 kg a month: 120 kWh/m², 48 kg/m².
 *   Bank     Office, 2000 m², an address naming no country (a UK one), gas 20,000 kWh and 3,000 kg a
 *            month: 120 kWh/m², 18 kg/m².
 *   Temple   Office, no floor area: cannot be benchmarked.
 */
let w: InvoiceWorld;
let api: Api;
let owner: string;
let aldgateOnly: string;
const office: Record<string, string> = { assetType: 'Office' };
const site: Record<string, string> = {};
const LAST = new Date().getUTCFullYear() - 1;
const YEARS = [LAST - 1, LAST];

interface Row {
  _id: string;
  siteName: string;
  benchmarked: boolean;
  missing?: string[];
  latest?: { year: number; kwhM2: number; kgCo2eM2: number; floorAreaM2: number };
}
interface Table {
  sites: Row[];
}

const table = async (token = owner, query = '') => {
  const res = await api({ method: 'GET', path: `/benchmarks/crrem/sites${query}`, token });
  expect(res.status).toBe(200);
  return res.body as unknown as Table;
};
const rowOf = (t: Table, name: string) => t.sites.find((s) => s.siteName === name);

/** The parts of the copy: the sites' fields and each year's figures from 2020 on. */
const PARTS = [
  'sites',
  ...Array.from({ length: new Date().getUTCFullYear() - 2019 }, (_, i) => String(2020 + i)),
];

/** The name of each part kept now (undefined where none is). */
async function keptBuilds(): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const part of PARTS) {
    const got = await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: { pk: `C#${w.demoId}#kept-site-years#${part}#0`, sk: 'part' },
        ConsistentRead: true,
      }),
    );
    out[part] = typeof got.Item?.build === 'string' ? got.Item.build : undefined;
  }
  return out;
}

/** The table as the kept copy answers it: asked twice, the second answer made from no fresh read. */
async function tableFromKeptCopy(): Promise<Table> {
  await table();
  const builds = await keptBuilds();
  for (const part of PARTS) expect(builds[part], part).toBeDefined();
  const answer = await table();
  expect(await keptBuilds()).toEqual(builds);
  return answer;
}

/** One site's intensity in one year, as the site's CRREM chart reads it. */
async function pointOf(siteId: string, year: number) {
  const res = await api({ method: 'GET', path: `/benchmarks/crrem/sites/${siteId}`, token: owner });
  expect(res.status).toBe(200);
  return (res.body as unknown as { points: { year: number; kwhM2: number; kgCo2eM2: number }[] }).points.find(
    (p) => p.year === year,
  );
}

/** The table and one site's chart as made from fresh reads of everything: every mark moved first. */
async function freshAnswers(siteId: string) {
  await moveChangeMarks(w.demoId, ['sites', 'siteYears']);
  const answer = await table();
  const res = await api({ method: 'GET', path: `/benchmarks/crrem/sites/${siteId}`, token: owner });
  return { answer, site: res.body };
}

/** What every kept part holds (not when or under which marks it was made). */
async function keptPayloads(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const part of PARTS) out[part] = JSON.stringify((await readKeptSiteYears(w.demoId, part))?.payload);
  return out;
}

/** The sites' and site years' partitions read whole (queried) while `fn` runs, and the items read by key. */
async function readsDuring<T>(fn: () => Promise<T>) {
  const client = documentClient();
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  const queried: string[] = [];
  let keysRead = 0;
  const watched = (pk: string) => pk.endsWith('#rollup#site-years') || pk.endsWith('#assets');
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
    if (command instanceof QueryCommand) {
      const pk = String(command.input.ExpressionAttributeValues?.[':pk'] ?? '');
      if (watched(pk)) queried.push(pk.slice(pk.indexOf('#', 2) + 1));
    } else if (command instanceof BatchGetCommand)
      for (const ask of Object.values(command.input.RequestItems ?? {}))
        keysRead += (ask.Keys ?? []).filter((k) => watched(String(k.pk))).length;
    return send(command);
  }) as typeof client.send);
  try {
    return { result: await fn(), queried, keysRead };
  } finally {
    spy.mockRestore();
  }
}

/** The marks item as stored. */
async function marksItem() {
  return (
    await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: { pk: `C#${w.demoId}#changes`, sk: 'marks' },
        ConsistentRead: true,
      }),
    )
  ).Item as Record<string, unknown>;
}

async function bills(assetId: string, utilityType: 'electricity' | 'gas', kwh: number, kg: number) {
  const meter = await created(api, owner, '/accounts', { type: utilityType, assetId });
  for (const year of YEARS)
    for (let m = 1; m <= 12; m++) {
      const month = `${year}-${String(m).padStart(2, '0')}`;
      await applyInvoiceContribution(
        w.demoId,
        meter,
        assetId,
        `bill-${meter}-${month}`,
        { month, utilityType, consumption: kwh, unit: 'kWh', cost: 100, emissionsKg: kg, factorVersion: 'x' },
        1,
      );
    }
}

beforeAll(async () => {
  // With the queues: a table asks the analytics worker to make an old copy afresh.
  w = await startInvoiceWorld();
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  const rows = ['Country,Property type,Year,kWh/m²,kgCO2e/m²'];
  for (let n = 0; n <= 30; n++) rows.push(`United Kingdom,Office,${2020 + n},${200 - 5 * n},${60 - 2 * n}`);
  const upload = await api({
    method: 'POST',
    path: '/benchmarks/crrem/pathway-sets',
    token: w.token('staff'),
    body: {
      name: 'Test pathways',
      version: '1.0',
      source: 'By hand',
      illustrative: true,
      csv: rows.join('\n'),
    },
  });
  expect(upload.status).toBe(201);
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  office.entityId = entityId;
  site.Aldgate = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    ...office,
    floorArea: 1000,
    address: { streetAddress: '1 Aldgate', postCode: 'EC3N 1AA', country: 'United Kingdom' },
  });
  site.Bank = await created(api, owner, '/assets', {
    siteName: 'Bank',
    ...office,
    floorArea: 2000,
    address: { streetAddress: '1 Bank', postCode: 'EC2R 8AH' },
  });
  site.Temple = await created(api, owner, '/assets', {
    siteName: 'Temple',
    ...office,
    address: { postCode: 'EC4Y 0HA' },
  });
  await bills(site.Aldgate as string, 'electricity', 10_000, 4_000);
  await bills(site.Bank as string, 'gas', 20_000, 3_000);
  aldgateOnly = await w.addUser('aldgate-only', ['asset_user'], {
    assets: { read: [site.Aldgate as string], write: [] },
  });
}, 120_000);

afterAll(async () => w?.stop());

describe('the CRREM table from the kept copy', () => {
  it('answers exactly as the fresh read that made the copy', async () => {
    expect(Object.values(await keptBuilds()).filter(Boolean)).toEqual([]);
    const fresh = await table();
    const kept = await tableFromKeptCopy();
    expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh));
    expect(rowOf(kept, 'Aldgate')?.latest).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 48 });
    expect(rowOf(kept, 'Bank')?.latest).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 18 });
    expect(rowOf(kept, 'Temple')).toMatchObject({ benchmarked: false, missing: ['floorArea'] });
    // A user who reads one site is answered from the same copy, with that site alone, as it reads for all.
    const narrow = await table(aldgateOnly);
    expect(narrow.sites).toEqual([rowOf(kept, 'Aldgate')]);
    const typed = await table(owner, '?propertyType=office');
    expect(typed.sites.map((s) => s.siteName).sort()).toEqual(['Aldgate', 'Bank', 'Temple']);
  });

  it('shows a new bill in the next answer', async () => {
    const before = await tableFromKeptCopy();
    expect(rowOf(before, 'Bank')?.latest).toMatchObject({ kwhM2: 120, kgCo2eM2: 18 });
    await applyInvoiceContribution(
      w.demoId,
      'late-meter',
      site.Bank as string,
      'late-bill',
      {
        month: `${LAST}-06`,
        utilityType: 'gas',
        consumption: 24_000,
        unit: 'kWh',
        cost: 100,
        emissionsKg: 1_200,
        factorVersion: 'x',
      },
      1,
    );
    // 264,000 kWh and 37,200 kg over 2000 m².
    expect(rowOf(await table(), 'Bank')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 18.6 });
  });

  it("makes a bill's year again and leaves the other years and the sites as they were", async () => {
    await tableFromKeptCopy();
    expect(await pointOf(site.Aldgate as string, LAST - 1)).toMatchObject({ kwhM2: 120, kgCo2eM2: 48 });
    const before = await keptBuilds();
    await applyInvoiceContribution(
      w.demoId,
      'year-before-meter',
      site.Aldgate as string,
      'year-before-bill',
      {
        month: `${LAST - 1}-05`,
        utilityType: 'electricity',
        consumption: 6_000,
        unit: 'kWh',
        cost: 100,
        emissionsKg: 600,
        factorVersion: 'x',
      },
      1,
    );
    const answer = await table();
    // 126,000 kWh and 48,600 kg over 1000 m² in the year before; the last year as it was.
    expect(await pointOf(site.Aldgate as string, LAST - 1)).toMatchObject({ kwhM2: 126, kgCo2eM2: 48.6 });
    expect(rowOf(answer, 'Aldgate')?.latest).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 48 });
    const after = await keptBuilds();
    expect(after[String(LAST - 1)]).toBeDefined();
    expect(after[String(LAST - 1)]).not.toBe(before[String(LAST - 1)]);
    for (const part of PARTS.filter((p) => p !== String(LAST - 1)))
      expect(after[part], part).toBe(before[part]);
    const site1 = await api({ method: 'GET', path: `/benchmarks/crrem/sites/${site.Aldgate}`, token: owner });
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(fresh.answer)).toBe(JSON.stringify(answer));
    expect(JSON.stringify(fresh.site)).toBe(JSON.stringify(site1.body));
  });

  it("shows an import's months in the next answer", async () => {
    await tableFromKeptCopy();
    await addManyToRollups(w.demoId, [
      {
        assetId: site.Aldgate as string,
        month: `${LAST}-03`,
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 12_000,
        cost: 100,
        emissionsKg: 0,
      },
    ]);
    // 132,000 kWh over 1000 m²; the emissions as they were.
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 48 });
  });

  it('shows a restatement of emissions in the next answer', async () => {
    await tableFromKeptCopy();
    await applyRestatementToSite(w.demoId, 'restate-1', site.Aldgate as string, [
      {
        month: `${LAST}-01`,
        utilityType: 'electricity',
        unit: 'kWh',
        emissionsKg: -2_000,
        factorVersion: 'y',
      },
    ]);
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 46 });
  });

  it("shows a site's new floor area, a deleted site and a new one in the next answer", async () => {
    await tableFromKeptCopy();
    const patch = await api({
      method: 'PATCH',
      path: `/assets/${site.Bank}`,
      token: owner,
      body: { floorArea: 4000 },
    });
    expect(patch.status).toBe(200);
    expect(rowOf(await table(), 'Bank')?.latest).toMatchObject({
      kwhM2: 66,
      kgCo2eM2: 9.3,
      floorAreaM2: 4000,
    });

    await tableFromKeptCopy();
    const gone = await api({ method: 'DELETE', path: `/assets/${site.Temple}`, token: owner });
    expect(gone.status).toBeLessThan(300);
    expect(rowOf(await table(), 'Temple')).toBeUndefined();

    await tableFromKeptCopy();
    await created(api, owner, '/assets', { siteName: 'Moorgate', ...office, floorArea: 800 });
    expect(rowOf(await table(), 'Moorgate')).toMatchObject({ benchmarked: false, missing: ['country'] });
  });

  it('after a bill, an import, a restatement or a site edit reads only what was written, and answers as a fresh build', async () => {
    const writes: [string, () => Promise<unknown>][] = [
      [
        'a bill',
        () =>
          applyInvoiceContribution(
            w.demoId,
            'patch-meter',
            site.Bank as string,
            'patch-bill',
            {
              month: `${LAST}-08`,
              utilityType: 'gas',
              consumption: 3_000,
              unit: 'kWh',
              cost: 100,
              emissionsKg: 300,
              factorVersion: 'x',
            },
            1,
          ),
      ],
      [
        'an import',
        () =>
          addManyToRollups(w.demoId, [
            {
              assetId: site.Aldgate as string,
              month: `${LAST - 1}-09`,
              utilityType: 'electricity',
              unit: 'kWh',
              consumption: 1_500,
              cost: 100,
              emissionsKg: 150,
            },
            {
              assetId: site.Bank as string,
              month: `${LAST}-09`,
              utilityType: 'electricity',
              unit: 'kWh',
              consumption: 2_500,
              cost: 100,
              emissionsKg: 250,
            },
          ]),
      ],
      [
        'a restatement',
        () =>
          applyRestatementToSite(w.demoId, 'restate-2', site.Bank as string, [
            { month: `${LAST}-02`, utilityType: 'gas', unit: 'kWh', emissionsKg: -500, factorVersion: 'y' },
          ]),
      ],
      [
        'a new site',
        async () => {
          site.Cannon = await created(api, owner, '/assets', {
            siteName: 'Cannon',
            ...office,
            floorArea: 900,
            address: { postCode: 'EC4N 6AP', country: 'United Kingdom' },
          });
        },
      ],
      [
        'a site edit',
        async () => {
          const res = await api({
            method: 'PATCH',
            path: `/assets/${site.Cannon}`,
            token: owner,
            body: { floorArea: 950 },
          });
          expect(res.status).toBe(200);
        },
      ],
    ];
    for (const [what, write] of writes) {
      const before = await tableFromKeptCopy();
      await write();
      const { result: answer, queried, keysRead } = await readsDuring(() => table());
      // Neither the sites nor any year's figures are read whole: only the sites written, by key.
      expect(queried, what).toEqual([]);
      expect(keysRead, what).toBeGreaterThan(0);
      expect(keysRead, what).toBeLessThanOrEqual(2);
      expect(JSON.stringify(answer), what).not.toBe(JSON.stringify(before));
      const patched = await keptPayloads();
      const fresh = await freshAnswers(site.Aldgate as string);
      expect(JSON.stringify(answer), what).toBe(JSON.stringify(fresh.answer));
      expect(await keptPayloads(), what).toEqual(patched);
    }
  });

  it('after an import of 400 sites reads only those sites, not their year whole, and answers as a fresh build', async () => {
    const before = await tableFromKeptCopy();
    // An import of 400 sites' months, written a hundred at a time (most of them not sites of the table).
    const rows = Array.from({ length: 400 }, (_, i) => ({
      assetId: i === 0 ? (site.Bank as string) : `imported-${String(i).padStart(4, '0')}`,
      month: `${LAST}-04`,
      utilityType: 'electricity' as const,
      unit: 'kWh',
      consumption: 1_000,
      cost: 10,
      emissionsKg: 100,
    }));
    await addManyToRollups(w.demoId, rows);
    const { result: answer, queried, keysRead } = await readsDuring(() => table());
    expect(queried).toEqual([]);
    expect(keysRead).toBeLessThanOrEqual(400);
    expect(JSON.stringify(rowOf(answer, 'Bank'))).not.toBe(JSON.stringify(rowOf(before, 'Bank')));
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh.answer));
  }, 60_000);

  it('reads a year whole again when more sites were written than its journal names, and answers as a fresh build', async () => {
    await tableFromKeptCopy();
    // An import naming more sites than a journal holds (most of them not sites of the company's table).
    const rows = Array.from({ length: JOURNAL_MAX_KEYS + 150 }, (_, i) => ({
      assetId: i === 0 ? (site.Bank as string) : `elsewhere-${String(i).padStart(4, '0')}`,
      month: `${LAST}-10`,
      utilityType: 'electricity' as const,
      unit: 'kWh',
      consumption: 1_000,
      cost: 10,
      emissionsKg: 100,
    }));
    await addManyToRollups(w.demoId, rows);
    const { result: answer, queried } = await readsDuring(() => table());
    expect(queried).toContain('rollup#site-years');
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh.answer));
  }, 120_000);

  it('answers as a fresh build when two bills are written at once and the table is asked between them', async () => {
    const before = await tableFromKeptCopy();
    const client = documentClient();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = false;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const pk = command instanceof UpdateCommand ? String(command.input.Key?.pk ?? '') : '';
      if (!holding && pk.endsWith('#rollup#site-years')) {
        // The first bill's figures wait here, after its first mark move.
        holding = true;
        await held;
      }
      return send(command);
    }) as typeof client.send);
    const bill = (meter: string, assetId: string, month: string, utilityType: 'gas' | 'electricity') =>
      applyInvoiceContribution(
        w.demoId,
        meter,
        assetId,
        `${meter}-bill`,
        {
          month,
          utilityType,
          consumption: 2_000,
          unit: 'kWh',
          cost: 100,
          emissionsKg: 400,
          factorVersion: 'x',
        },
        1,
      );
    let slow: Promise<unknown> = Promise.resolve();
    try {
      slow = bill('slow-meter', site.Bank as string, `${LAST}-12`, 'gas');
      await vi.waitFor(() => expect(holding).toBe(true));
    } finally {
      spy.mockRestore();
    }
    await bill('quick-meter', site.Aldgate as string, `${LAST - 1}-12`, 'electricity');
    const between = await table();
    expect(JSON.stringify(rowOf(between, 'Bank'))).toBe(JSON.stringify(rowOf(before, 'Bank')));
    release();
    await slow;
    const { result: answer, queried } = await readsDuring(() => table());
    expect(queried).toEqual([]);
    expect(JSON.stringify(rowOf(answer, 'Bank'))).not.toBe(JSON.stringify(rowOf(before, 'Bank')));
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh.answer));
    expect(await pointOf(site.Aldgate as string, LAST - 1)).toEqual(
      (fresh.site as { points: { year: number }[] }).points.find((p) => p.year === LAST - 1),
    );
  });

  it('shows a bill whose writer died after its figures, before its last mark, in the next answer', async () => {
    const before = await tableFromKeptCopy();
    expect(rowOf(before, 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 46 });
    const client = documentClient();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    let figuresSent = false;
    let cutOff = false;
    let duringWrite: Table | undefined;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const pk = command instanceof UpdateCommand ? String(command.input.Key?.pk ?? '') : '';
      if (!figuresSent && pk.endsWith('#rollup#site-years')) {
        figuresSent = true;
        // A table asked for while the bill is being written, before its figures land.
        duringWrite = await table();
      } else if (figuresSent && !cutOff && pk.endsWith('#changes')) {
        cutOff = true;
        throw new Error('The writer died here');
      }
      return send(command);
    }) as typeof client.send);
    try {
      await expect(
        applyInvoiceContribution(
          w.demoId,
          'dying-meter',
          site.Aldgate as string,
          'dying-bill',
          {
            month: `${LAST}-07`,
            utilityType: 'electricity',
            consumption: 5_000,
            unit: 'kWh',
            cost: 100,
            emissionsKg: 1_000,
            factorVersion: 'x',
          },
          1,
        ),
      ).rejects.toThrow('The writer died here');
    } finally {
      spy.mockRestore();
    }
    expect(cutOff).toBe(true);
    expect(rowOf(duringWrite as Table, 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 46 });
    // 137,000 kWh and 47,000 kg over 1000 m², in the next answer and every one after.
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 137, kgCo2eM2: 47 });
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 137, kgCo2eM2: 47 });
  });
  it('shows a site edit whose writer died after the site, before its last mark, in the next answer', async () => {
    const before = await tableFromKeptCopy();
    expect(rowOf(before, 'Bank')?.latest?.floorAreaM2).toBe(4000);
    const client = documentClient();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    let siteWritten = false;
    let cutOff = false;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const pk =
        command instanceof UpdateCommand
          ? String(command.input.Key?.pk ?? '')
          : command instanceof PutCommand
            ? String(command.input.Item?.pk ?? '')
            : '';
      if (!siteWritten && pk.endsWith('#assets')) {
        const out = await send(command);
        siteWritten = true;
        return out;
      }
      if (siteWritten && !cutOff && pk.endsWith('#changes')) {
        cutOff = true;
        throw new Error('The writer died here');
      }
      return send(command);
    }) as typeof client.send);
    try {
      await api({ method: 'PATCH', path: `/assets/${site.Bank}`, token: owner, body: { floorArea: 5000 } });
    } finally {
      spy.mockRestore();
    }
    expect(cutOff).toBe(true);
    expect(rowOf(await table(), 'Bank')?.latest?.floorAreaM2).toBe(5000);
    expect(rowOf(await table(), 'Bank')?.latest?.floorAreaM2).toBe(5000);
  });

  it("drops a dead writer's name from the marks once a reader or a writer sees it", async () => {
    await tableFromKeptCopy();
    const longAgo = Date.now() - WRITE_DEAD_AFTER_MS - 60_000;
    const name = (n: string) => `writing#dead-${n}`;
    const died = async (n: string) =>
      documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: { pk: `C#${w.demoId}#changes`, sk: 'marks' },
          UpdateExpression: 'SET #w = :w',
          ExpressionAttributeNames: { '#w': name(n) },
          ExpressionAttributeValues: { ':w': { marks: [`siteYears#${LAST}`], at: longAgo } },
        }),
      );
    // A writer that died twenty minutes ago and more: the next table drops its name.
    await died('a');
    expect(await marksItem()).toHaveProperty([name('a')]);
    await table();
    expect(await marksItem()).not.toHaveProperty([name('a')]);
    // And so does the next writer of site years.
    await died('b');
    await applyInvoiceContribution(
      w.demoId,
      'after-dead-meter',
      site.Aldgate as string,
      'after-dead-bill',
      {
        month: `${LAST}-11`,
        utilityType: 'electricity',
        consumption: 100,
        unit: 'kWh',
        cost: 1,
        emissionsKg: 10,
        factorVersion: 'x',
      },
      1,
    );
    expect(await marksItem()).not.toHaveProperty([name('b')]);
  });
  it('keeps no list of written sites for a year no table keeps, so the marks do not grow with old bills', async () => {
    await tableFromKeptCopy();
    for (const n of [1, 2, 3])
      await applyInvoiceContribution(
        w.demoId,
        `old-meter-${n}`,
        site.Aldgate as string,
        `old-bill-${n}`,
        {
          month: `2015-0${n}`,
          utilityType: 'electricity',
          consumption: 100,
          unit: 'kWh',
          cost: 1,
          emissionsKg: 10,
          factorVersion: 'x',
        },
        1,
      );
    const item = await marksItem();
    expect(item).toHaveProperty(['siteYears#2015']);
    expect(Object.keys(item).filter((k) => k.includes('siteYears#2015'))).toEqual(['siteYears#2015']);
    // A year the table keeps lists the site written since the table last kept it.
    await applyInvoiceContribution(
      w.demoId,
      'kept-year-meter',
      site.Bank as string,
      'kept-year-bill',
      {
        month: `${LAST - 1}-03`,
        utilityType: 'gas',
        consumption: 100,
        unit: 'kWh',
        cost: 1,
        emissionsKg: 10,
        factorVersion: 'x',
      },
      1,
    );
    expect([...((await marksItem())[`journal#siteYears#${LAST - 1}`] as Set<string>)]).toEqual([site.Bank]);
  });
});

describe('the hourly remaking of the kept copy, off the call', () => {
  const HOUR = 3_600_000;
  const head = (part: string) => ({ pk: `C#${w.demoId}#kept-site-years#${part}#0`, sk: 'part' });

  /** Makes every kept part look made `ms` ago, as an hour passing does. */
  async function ageParts(ms: number) {
    for (const part of PARTS)
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: head(part),
          // Any earlier ask is as old: it no longer holds callers back from asking.
          UpdateExpression: 'SET builtAt = builtAt - :ms REMOVE askedAt',
          ExpressionAttributeValues: { ':ms': ms },
        }),
      );
  }

  const builtAts = async () =>
    Object.fromEntries(
      await Promise.all(
        PARTS.map(async (part) => [part, (await readKeptSiteYears(w.demoId, part))?.builtAt ?? 0] as const),
      ),
    );

  beforeAll(async () => {
    // Writers that died in the cases above are long gone by the time a copy is an hour old: their names
    // are dropped as a reader drops them after twenty minutes (until then no part of their marks is kept).
    const dead = Object.keys(await marksItem()).filter((k) => k.startsWith('writing#'));
    if (dead.length > 0)
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: { pk: `C#${w.demoId}#changes`, sk: 'marks' },
          UpdateExpression: `REMOVE ${dead.map((_, i) => `#w${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(dead.map((k, i) => [`#w${i}`, k])),
        }),
      );
  });

  const askedParts = (bodies: string[]) =>
    bodies.flatMap((b) => (JSON.parse(b) as { keptSiteYears?: string[] }).keptSiteYears ?? []).sort();

  it('answers from a copy past its hour without reading a part whole, and asks the worker once to make it afresh', async () => {
    const before = await tableFromKeptCopy();
    await w.drain('restatements');
    await ageParts(HOUR + 60_000);
    const builds = await keptBuilds();
    const { result: answer, queried, keysRead } = await readsDuring(() => table());
    expect(queried).toEqual([]);
    expect(keysRead).toBe(0);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(before));
    expect(await keptBuilds()).toEqual(builds);
    const asked = await w.drain('restatements');
    expect(askedParts(asked)).toEqual([...PARTS].sort());
    // The next caller is answered from the same copy and does not ask again.
    expect(JSON.stringify(await table())).toBe(JSON.stringify(before));
    expect(await w.drain('restatements')).toEqual([]);

    // The worker makes every part afresh; callers then read the new copy, which answers as before.
    const out = await analyticsWorker(sqsEvent(asked, 'restatements'));
    expect(out.batchItemFailures).toEqual([]);
    const made = await keptBuilds();
    for (const part of PARTS) expect(made[part], part).not.toBe(builds[part]);
    for (const [part, at] of Object.entries(await builtAts()))
      expect(Date.now() - at, part).toBeLessThan(HOUR);
    const { result: after, queried: afterQueried } = await readsDuring(() => table());
    expect(afterQueried).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    // Delivered again, the request finds the copy fresh and does nothing.
    expect((await analyticsWorker(sqsEvent(asked, 'restatements'))).batchItemFailures).toEqual([]);
    expect(await keptBuilds()).toEqual(made);
  });

  it('after a bill, answers a copy past its hour patched, not read whole, and as a fresh build', async () => {
    await tableFromKeptCopy();
    await w.drain('restatements');
    await ageParts(HOUR + 60_000);
    await applyInvoiceContribution(
      w.demoId,
      'late-hour-meter',
      site.Bank as string,
      'late-hour-bill',
      {
        month: `${LAST}-05`,
        utilityType: 'gas',
        consumption: 1_000,
        unit: 'kWh',
        cost: 10,
        emissionsKg: 100,
        factorVersion: 'x',
      },
      1,
    );
    const { result: answer, queried } = await readsDuring(() => table());
    expect(queried).toEqual([]);
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh.answer));
  });

  it('answers as a fresh build, from the kept copy, when the worker dies while making it afresh', async () => {
    const before = await tableFromKeptCopy();
    await w.drain('restatements');
    await ageParts(HOUR + 60_000);
    // As a table asks (once in ten minutes from a process, so the case above asked already).
    const asked = [JSON.stringify({ companyId: w.demoId, keptSiteYears: PARTS })];
    const builds = await keptBuilds();
    // The worker dies as it is about to keep the first part it made.
    const client = documentClient();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof PutCommand && String(command.input.Item?.pk).endsWith('#0'))
        throw new Error('The worker died here');
      return send(command);
    }) as typeof client.send);
    let out: Awaited<ReturnType<typeof analyticsWorker>>;
    try {
      out = await analyticsWorker(sqsEvent(asked, 'restatements'));
    } finally {
      spy.mockRestore();
    }
    // The message is handed back (and after its last attempt kept in the dead-letter queue).
    expect(out.batchItemFailures.length).toBe(1);
    expect(await keptBuilds()).toEqual(builds);
    const { result: answer, queried } = await readsDuring(() => table());
    expect(queried).toEqual([]);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(before));
    // Delivered again, the request is carried out.
    expect((await analyticsWorker(sqsEvent(asked, 'restatements'))).batchItemFailures).toEqual([]);
    for (const [part, at] of Object.entries(await builtAts()))
      expect(Date.now() - at, part).toBeLessThan(HOUR);
    const fresh = await freshAnswers(site.Aldgate as string);
    expect(JSON.stringify(fresh.answer)).toBe(JSON.stringify(before));
  });

  it('keeps a copy of many pieces whole when its next copy is cut off before its first piece', async () => {
    // Random figures do not pack: each copy is more than one piece (350 KB each) once packed.
    const noise = () => [randomBytes(600_000).toString('base64')];
    const first = noise();
    const at = Date.now();
    await keepSiteYears(w.demoId, 'pieces-test', { marks: { m: 1 }, layout: 1, builtAt: at, payload: first });
    const head = await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: { pk: `C#${w.demoId}#kept-site-years#pieces-test#0`, sk: 'part' },
      }),
    );
    expect(Number(head.Item?.parts)).toBeGreaterThan(1);
    const client = documentClient();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof PutCommand && String(command.input.Item?.pk).endsWith('#pieces-test#0'))
        throw new Error('The worker died here');
      return send(command);
    }) as typeof client.send);
    try {
      await expect(
        keepSiteYears(w.demoId, 'pieces-test', {
          marks: { m: 2 },
          layout: 1,
          builtAt: at + 1,
          payload: noise(),
        }),
      ).rejects.toThrow('The worker died here');
    } finally {
      spy.mockRestore();
    }
    const kept = await readKeptSiteYears<string[]>(w.demoId, 'pieces-test');
    expect(kept?.builtAt).toBe(at);
    expect(kept?.payload).toEqual(first);
    // A copy made under older marks never replaces a later one.
    expect(
      await keepSiteYears(w.demoId, 'pieces-test', {
        marks: { m: 0 },
        layout: 1,
        builtAt: at + 2,
        payload: [],
      }),
    ).toBe(false);
    expect((await readKeptSiteYears<string[]>(w.demoId, 'pieces-test'))?.builtAt).toBe(at);
  }, 60_000);
});
