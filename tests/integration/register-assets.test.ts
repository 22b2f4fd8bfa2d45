import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_GRANTS } from '../../shared/access/caller.ts';
import { DEFAULT_LIST_LIMIT } from '../../shared/constants.ts';
import { assetWizardSchema, normaliseWizardValues } from '../../shared/schemas/asset-wizard.ts';
import type { TestRequest } from '../support/http-events.ts';
import { type RegisterFixture, startRegisterFixture, wizardBody } from './register-assets-support.ts';

let r: RegisterFixture;
const call = (req: TestRequest) => r.api(req);
const asOwner = (method: string, path: string, body?: unknown) =>
  call({ method, path, token: r.tokens.owner, body });

beforeAll(async () => {
  r = await startRegisterFixture();
}, 60_000);
afterAll(async () => r?.stop());

type Site = { _id: string; siteName: string; floorArea?: number; status: string };
const names = (body: Record<string, unknown>) => (body.data as Site[]).map((a) => a.siteName);

describe('the asset wizard', () => {
  it('answers a check with every problem at once, per field, and the page message', async () => {
    const res = await asOwner('POST', '/assets/wizard-check', {
      siteName: ' ',
      entityId: r.otherEntityId,
      assetType: 'Castle',
      address: { streetAddress: '1 High Street', postCode: 'NOT A POSTCODE' },
      floorArea: -3,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('There was a problem with some details entered below.');
    expect(res.body.formMessages).toEqual({
      siteName: 'This field is required',
      entityId: 'Choose an entity you manage',
      assetType: 'Choose a type of site',
      'address.postCode': 'Must be a valid UK postcode',
      floorArea: 'Must be greater than 0',
    });
  });

  it('refuses a second site of the same name, whatever its case', async () => {
    const res = await asOwner(
      'POST',
      '/assets/wizard-check',
      wizardBody(r.entityId, { siteName: 'ALDGATE house' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ siteName: 'A site with this name already exists' });
  });

  it('answers a good check with the values as they will be stored, and stores nothing', async () => {
    const before = await asOwner('GET', '/assets?limit=1');
    const res = await asOwner(
      'POST',
      '/assets/wizard-check',
      wizardBody(r.entityId, { siteName: '  Hardman Court ', floorArea: '1,000', floorAreaUnit: 'ft2' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.values).toMatchObject({
      siteName: 'Hardman Court',
      floorArea: 92.9,
      floorAreaUnit: 'ft2',
      status: 'active',
      address: { postCode: 'EC3N 1DL', country: 'United Kingdom' },
    });
    expect((await asOwner('GET', '/assets?limit=1')).body.total).toBe(before.body.total);
  });

  it('creates the site on submit with its first status and timeline entry', async () => {
    // A search before the site exists builds the company's index, so finding the site later proves the
    // submit itself kept the index up to date.
    expect((await asOwner('GET', '/global-search/search?query=colmore')).body.results).toEqual([]);
    const res = await asOwner(
      'POST',
      '/assets/wizard-submit',
      wizardBody(r.entityId, { siteName: 'Colmore Gate' }),
    );
    expect(res.status).toBe(201);
    const id = String(res.body._id);
    expect(res.body).toMatchObject({ siteName: 'Colmore Gate', entityId: r.entityId, status: 'active' });
    const history = await asOwner('GET', `/assets/${id}/status-history`);
    expect(history.body.data).toMatchObject([{ status: 'active', comment: 'Site added' }]);
    const timeline = await asOwner('GET', `/assets/${id}/timeline-events`);
    expect(timeline.body.data).toMatchObject([{ title: 'Site added' }]);
    const found = await asOwner('GET', '/global-search/search?query=colmore');
    expect(found.body.results).toEqual([expect.objectContaining({ searchType: 'asset', sourceId: id })]);
  });

  it('creates nothing on a submit that fails its checks', async () => {
    const before = (await asOwner('GET', '/assets?limit=1')).body.total;
    const res = await asOwner(
      'POST',
      '/assets/wizard-submit',
      wizardBody(r.entityId, { siteName: 'Nowhere', entityId: 'x' }),
    );
    expect(res.status).toBe(400);
    expect((await asOwner('GET', '/assets?limit=1')).body.total).toBe(before);
  });

  it('removes what it wrote when a later write of the submit fails', async () => {
    const { createWizardAsset } = await import('../../functions/assets/asset-wizard-service.ts');
    const { deleteRaw, putItem } = await import('../../functions/core/data/item-repository.ts');
    const caller = {
      kind: 'user' as const,
      sub: 'owner',
      companyId: r.demoId,
      isAdmin: false,
      permissions: ['company_owner' as const, 'company_admin' as const],
      grants: EMPTY_GRANTS,
      roles: [],
    };
    let writes = 0;
    const failing = {
      put: async (ref: Parameters<typeof putItem>[0], item: Parameters<typeof putItem>[1]) => {
        if (++writes === 3) throw new Error('table unavailable');
        await putItem(ref, item);
      },
      remove: deleteRaw,
    };
    const before = (await asOwner('GET', '/assets?limit=1')).body.total;
    const values = normaliseWizardValues(
      assetWizardSchema.parse(wizardBody(r.entityId, { siteName: 'Half Built' })),
    );
    await expect(createWizardAsset(caller, values, failing)).rejects.toThrow('table unavailable');
    expect(writes).toBe(3);
    expect((await asOwner('GET', '/assets?limit=1')).body.total).toBe(before);
    expect((await asOwner('GET', '/assets?query=half%20built')).body.total).toBe(0);
  });

  it('lets a user granted one site create none under an entity they do not manage', async () => {
    const res = await call({
      method: 'POST',
      path: '/assets/wizard-submit',
      token: r.tokens.siteUser,
      body: wizardBody(r.entityId, { siteName: 'Sneaky Site' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({ entityId: 'Choose an entity you manage' });
  });
});

describe('the site list', () => {
  it('filters by entity, status and type, several values at once', async () => {
    const retail = await asOwner('GET', '/assets?assetType=Retail');
    expect(names(retail.body)).toEqual(['Temple Quay Point']);
    const both = await asOwner('GET', '/assets?assetType=Retail,Office&$sort=siteName');
    expect(names(both.body)).toEqual(['Aldgate House', 'Colmore Gate', 'Temple Quay Point']);
    const byEntity = await asOwner('GET', `/assets?entityId=${r.otherEntityId}`);
    expect(byEntity.body.total).toBe(0);
    expect((await asOwner('GET', '/assets?status=sold')).body.total).toBe(0);
  });

  it('sorts and pages, with the total of all matches', async () => {
    const page = await asOwner('GET', '/assets?$sort=-floorArea&limit=1&skip=0');
    expect(page.body).toMatchObject({ total: 3, limit: 1, skip: 0 });
    // Aldgate House and Colmore Gate both have 6,240 m² (ties go by name); 20,000 ft² is about 1,858 m².
    expect(names(page.body)).toEqual(['Aldgate House']);
    const next = await asOwner('GET', '/assets?$sort=-floorArea&limit=1&skip=2');
    expect((next.body.data as Site[])[0]?.floorArea).toBeCloseTo(1858.06, 1);
    expect((await asOwner('GET', '/assets?$sort=height')).status).toBe(400);
  });

  it('searches by name and address', async () => {
    expect(names((await asOwner('GET', '/assets?query=bristol')).body)).toEqual(['Temple Quay Point']);
  });

  it('refuses paging that is not a whole number, naming the value, rather than showing the first page', async () => {
    for (const [query, field] of [
      ['limit=ten', 'limit'],
      ['skip=-20', 'skip'],
      ['$limit=1.5', '$limit'],
    ] as const) {
      const res = await asOwner('GET', `/assets?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe(
        `Invalid query parameter (${field}: Must be a whole number of 0 or more)`,
      );
    }
    const timeline = await asOwner('GET', `/assets/${r.assets.mine}/timeline-events?limit=x`);
    expect(timeline.status).toBe(400);
    expect(timeline.body.message).toBe(
      'Invalid query parameter (limit: Must be a whole number of 0 or more)',
    );
    expect((await asOwner('GET', '/assets?limit=&skip=')).body).toMatchObject({
      total: 3,
      limit: DEFAULT_LIST_LIMIT,
      skip: 0,
    });
  });

  it('shows a user only the sites they were granted, and another company none of them', async () => {
    const mine = await call({ method: 'GET', path: '/assets', token: r.tokens.siteUser });
    expect(names(mine.body)).toEqual(['Aldgate House']);
    const theirs = await call({ method: 'GET', path: '/assets', token: r.tokens.outsider });
    expect(names(theirs.body)).toEqual(['Kings Road Yard']);
  });
});

describe('a site', () => {
  it('is 404 to another company on every call of the register', async () => {
    for (const path of [
      '',
      '/asset-groups',
      '/account-types',
      '/timeline-events',
      '/documents',
      '/satellite-images',
      '/geocoordinates',
    ]) {
      const res = await call({
        method: 'GET',
        path: `/assets/${r.assets.mine}${path}`,
        token: r.tokens.outsider,
      });
      expect(res.status, path).toBe(404);
    }
    const patch = await call({
      method: 'PATCH',
      path: `/assets/${r.assets.mine}/address`,
      token: r.tokens.outsider,
      body: { streetAddress: 'x', postCode: 'EC1A 1BB' },
    });
    expect(patch.status).toBe(404);
  });

  it('changes its address, checked like the wizard, and places it at the new postcode', async () => {
    const bad = await asOwner('PATCH', `/assets/${r.assets.second}/address`, { streetAddress: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toMatchObject({
      streetAddress: 'This field is required',
      postCode: 'This field is required',
    });
    await asOwner('GET', `/assets/${r.assets.second}/geocoordinates`);
    const res = await asOwner('PATCH', `/assets/${r.assets.second}/address`, {
      streetAddress: '1 Broad Quay',
      locality: 'Bristol',
      postCode: 'bs14dj',
    });
    expect(res.status).toBe(200);
    expect(res.body.address).toMatchObject({ streetAddress: '1 Broad Quay', postCode: 'BS1 4DJ' });
    const at = res.body.geocoordinates as { lat: number; lng: number };
    // No longer the old postcode's place (the demo's Temple Quay), but the new one's, in Bristol still.
    expect(at).not.toEqual({ lat: 51.451, lng: -2.5825 });
    expect(Math.abs(at.lat - 51.45)).toBeLessThan(0.09);
    const looked = await asOwner('GET', `/assets/${r.assets.second}/geocoordinates?refresh=true`);
    expect(looked.body).toMatchObject({ ...at, postcode: 'BS1 4DJ' });
  });

  it('lets a read-only user see it but not change it', async () => {
    const see = await call({ method: 'GET', path: `/assets/${r.assets.mine}`, token: r.tokens.reader });
    expect(see.status).toBe(200);
    const change = await call({
      method: 'PATCH',
      path: `/assets/${r.assets.mine}/address`,
      token: r.tokens.reader,
      body: { streetAddress: '1 Broad Quay', postCode: 'BS1 4DJ' },
    });
    expect(change.status).toBe(403);
  });

  it('lists the portfolios it is in and the utilities its meters measure', async () => {
    const group = await asOwner('POST', '/asset-groups', {
      name: 'London offices',
      assetIds: [r.assets.mine],
    });
    expect(group.status).toBe(201);
    await asOwner('POST', '/asset-groups', { name: 'Bristol', assetIds: [r.assets.second] });
    const groups = await asOwner('GET', `/assets/${r.assets.mine}/asset-groups`);
    expect((groups.body.data as { name: string }[]).map((g) => g.name)).toEqual(['London offices']);
    for (const type of ['gas', 'electricity', 'electricity'])
      expect((await asOwner('POST', '/accounts', { type, assetId: r.assets.mine })).status).toBe(201);
    const types = await asOwner('GET', `/assets/${r.assets.mine}/account-types`);
    expect(types.body).toMatchObject({ data: ['electricity', 'gas'], counts: { electricity: 2, gas: 1 } });
  });
});

describe('status history and timeline', () => {
  it('keeps the site status equal to the latest entry, through adds, edits and deletes', async () => {
    const id = r.assets.second;
    const bad = await asOwner('POST', `/assets/${id}/status-history`, {
      status: 'flooded',
      date: '2026-01-01',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toHaveProperty('status');
    const sold = await asOwner('POST', `/assets/${id}/status-history`, {
      status: 'sold',
      date: '2099-01-01',
    });
    expect(sold.status).toBe(201);
    expect((await asOwner('GET', `/assets/${id}`)).body.status).toBe('sold');
    const edited = await asOwner('PATCH', `/assets/${id}/status-history/${sold.body._id}`, {
      status: 'inactive',
    });
    expect(edited.body.status).toBe('inactive');
    expect((await asOwner('GET', `/assets/${id}`)).body.status).toBe('inactive');
    await asOwner('DELETE', `/assets/${id}/status-history/${sold.body._id}`);
    expect((await asOwner('GET', `/assets/${id}`)).body.status).toBe('active');
    const gone = await asOwner('PATCH', `/assets/${id}/status-history/${sold.body._id}`, { status: 'sold' });
    expect(gone.status).toBe(404);
  });

  it('lists timeline events newest first by their date, and edits and deletes them', async () => {
    const id = r.assets.second;
    const older = await asOwner('POST', `/assets/${id}/timeline-events`, {
      title: 'LED retrofit',
      date: '2020-05-01',
    });
    const newer = await asOwner('POST', `/assets/${id}/timeline-events`, {
      title: 'Roof repair',
      date: '2099-02-01',
    });
    expect(older.status).toBe(201);
    let list = await asOwner('GET', `/assets/${id}/timeline-events`);
    expect((list.body.data as { title: string }[]).map((e) => e.title)).toEqual([
      'Roof repair',
      'Site added',
      'LED retrofit',
    ]);
    await asOwner('PATCH', `/assets/${id}/timeline-events/${newer.body._id}`, { title: 'Roof replaced' });
    await asOwner('DELETE', `/assets/${id}/timeline-events/${older.body._id}`);
    list = await asOwner('GET', `/assets/${id}/timeline-events`);
    expect((list.body.data as { title: string }[]).map((e) => e.title)).toEqual([
      'Roof replaced',
      'Site added',
    ]);
    const foreign = await call({
      method: 'GET',
      path: `/assets/${id}/timeline-events`,
      token: r.tokens.outsider,
    });
    expect(foreign.status).toBe(404);
  });
});
