import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisterFixture, startRegisterFixture } from './register-assets-support.ts';

let r: RegisterFixture;
const asOwner = (method: string, path: string, body?: unknown) =>
  r.api({ method, path, token: r.tokens.owner, body });

beforeAll(async () => {
  r = await startRegisterFixture();
}, 60_000);
afterAll(async () => r?.stop());

const FULL_TENANT = {
  name: 'Harbour Legal LLP',
  unit: 'Floor 2',
  leaseStart: '2024-01-01',
  leaseEnd: '2029-12-31',
  floorArea: 450,
  contactEmail: 'facilities@harbour.test',
};

async function addTenant(): Promise<string> {
  const created = await asOwner('POST', `/assets/${r.assets.mine}/tenants`, FULL_TENANT);
  expect(created.status).toBe(201);
  return String(created.body._id);
}

describe("editing a site's tenant", () => {
  it('removes the optional fields sent as null and keeps the rest', async () => {
    const path = `/assets/${r.assets.mine}/tenants/${await addTenant()}`;
    const edited = await asOwner('PATCH', path, { contactEmail: null, leaseEnd: null, unit: 'Floor 3' });
    expect(edited.status).toBe(200);

    const read = await asOwner('GET', path);
    expect(read.body).not.toHaveProperty('contactEmail');
    expect(read.body).not.toHaveProperty('leaseEnd');
    expect(read.body).toMatchObject({
      name: 'Harbour Legal LLP',
      unit: 'Floor 3',
      leaseStart: '2024-01-01',
      floorArea: 450,
    });
    const list = await asOwner('GET', `/assets/${r.assets.mine}/tenants`);
    const listed = (list.body.data as Record<string, unknown>[]).find((t) => t._id === read.body._id);
    expect(listed).not.toHaveProperty('contactEmail');
  });

  it('refuses to clear the name, per field, and changes nothing', async () => {
    const path = `/assets/${r.assets.mine}/tenants/${await addTenant()}`;
    const refused = await asOwner('PATCH', path, { name: null, contactEmail: null });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({ name: 'This field is required' });

    const read = await asOwner('GET', path);
    expect(read.body).toMatchObject({ name: 'Harbour Legal LLP', contactEmail: 'facilities@harbour.test' });
  });

  it('still checks a value that replaces one', async () => {
    const path = `/assets/${r.assets.mine}/tenants/${await addTenant()}`;
    const refused = await asOwner('PATCH', path, { contactEmail: 'not an address', floorArea: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({
      contactEmail: 'Must be a valid e-mail address',
      floorArea: 'Must be greater than 0',
    });
  });
});

describe('editing a project', () => {
  it('removes an optional field sent as null but refuses to clear one that has a default', async () => {
    const created = await asOwner('POST', '/projects', {
      name: 'LED retrofit',
      assetId: r.assets.mine,
      description: 'All floors',
      cost: 12000,
    });
    expect(created.status).toBe(201);
    const path = `/projects/${created.body._id}`;

    const edited = await asOwner('PATCH', path, { description: null, cost: null });
    expect(edited.status).toBe(200);
    expect(edited.body).not.toHaveProperty('description');
    expect(edited.body).not.toHaveProperty('cost');
    expect(edited.body).toMatchObject({ name: 'LED retrofit', status: 'planned' });

    const refused = await asOwner('PATCH', path, { status: null });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({ status: 'This field is required' });
  });
});

describe('editing a company-wide recommendation', () => {
  it('removes an optional field sent as null and refuses to clear the title', async () => {
    const made = await asOwner('POST', '/recommendations', {
      title: 'Fit LED lighting',
      category: 'Lighting',
      estimatedSaving: 12000,
    });
    expect(made.status).toBe(201);
    const path = `/recommendations/global/${made.body._id}`;

    expect((await asOwner('PATCH', path, { category: null, estimatedSaving: null })).status).toBe(200);
    const read = await asOwner('GET', path);
    expect(read.body).not.toHaveProperty('category');
    expect(read.body).not.toHaveProperty('estimatedSaving');
    expect(read.body).toMatchObject({ title: 'Fit LED lighting', priority: 'medium' });

    const refused = await asOwner('PATCH', path, { title: null });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({ title: 'This field is required' });
  });
});
