import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCarbonProjects } from '../../infra/local/seed/carbon-projects.ts';
import { staffUser } from '../../infra/local/seed/service-calls.ts';
import { createUser } from '../support/api-fixture.ts';
import type { TestRequest } from '../support/http-events.ts';
import { type RegisterFixture, startRegisterFixture } from './register-assets-support.ts';

let r: RegisterFixture;
let outbox: string;
const as = (token: string) => (method: string, path: string, body?: unknown) =>
  r.api({ method, path, token, body } satisfies TestRequest);

beforeAll(async () => {
  outbox = await mkdtemp(join(tmpdir(), 'voltfolio-marketplace-'));
  process.env.OUTBOX_DIR = outbox;
  process.env.STAFF_EMAIL = 'desk@voltfolio.test';
  r = await startRegisterFixture();
  await createUser({
    sub: 'buyer',
    email: 'buyer@demo.test',
    companyIds: [r.demoId],
    permissions: ['company_user'],
  });
  await createUser({
    sub: 'buyer-elsewhere',
    email: 'buyer@northwind.test',
    companyIds: [r.otherId],
    permissions: ['company_user'],
  });
  expect(
    await seedCarbonProjects(
      staffUser(r.demoId, { sub: 'staff', email: 'admin@voltfolio.test', name: 'Staff' }),
    ),
  ).toBe(8);
}, 90_000);
afterAll(async () => r?.stop());

describe('the carbon marketplace', () => {
  const buyer = () => as(r.fx.issuer.accessToken('buyer'));

  it('lists project types with their approach and how many projects offer each', async () => {
    const res = await buyer()('GET', '/marketplace/carbon/project-types');
    expect(res.status).toBe(200);
    const types = res.body.data as { key: string; approach: string; projects: number }[];
    expect(types.find((t) => t.key === 'biochar')).toMatchObject({ approach: 'removal', projects: 1 });
    expect(types.find((t) => t.key === 'cookstoves')).toMatchObject({ approach: 'avoidance', projects: 1 });
  });

  it('filters the catalogue, cheapest first, every demo project marked as an example', async () => {
    const all = await buyer()('GET', '/marketplace/carbon');
    const projects = all.body.data as { name: string; pricePerTonne: number; isExample: boolean }[];
    expect(projects).toHaveLength(8);
    expect(projects.every((p) => p.isExample && p.name.startsWith('Example:'))).toBe(true);
    const prices = projects.map((p) => p.pricePerTonne);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const removals = await buyer()(
      'GET',
      '/marketplace/carbon?approach=removal&maxPrice=50&registry=Peatland%20Code',
    );
    expect((removals.body.data as { name: string }[]).map((p) => p.name)).toEqual([
      'Example: Flow Country peat rewetting',
    ]);
    const recent = await buyer()('GET', '/marketplace/carbon?minVintage=2025');
    expect((recent.body.data as { vintage: number }[]).every((p) => p.vintage >= 2025)).toBe(true);
    expect((await buyer()('GET', '/marketplace/carbon?maxPrice=cheap')).status).toBe(400);
    expect((await buyer()('GET', '/marketplace/carbon?projectType=unicorns')).status).toBe(400);
  });

  it('shows a project and takes a company interest in it, which staff are e-mailed about', async () => {
    const list = await buyer()('GET', '/marketplace/carbon?projectType=biochar');
    const id = String((list.body.data as { _id: string }[])[0]?._id);
    const project = await buyer()('GET', `/marketplace/carbon/${id}`);
    expect(project.body).toMatchObject({
      registry: 'Puro.earth',
      vintage: 2025,
      approach: 'removal',
      interests: [],
    });
    const tooMuch = await buyer()('POST', `/marketplace/carbon/${id}/interest`, { tonnes: 100_000 });
    expect(tooMuch.body.formMessages).toEqual({ tonnes: 'Ask for no more than the tonnes available' });
    const made = await buyer()('POST', `/marketplace/carbon/${id}/interest`, {
      tonnes: 50,
      note: 'For FY26',
    });
    expect(made.status).toBe(201);
    const mails = await Promise.all(
      (await readdir(outbox)).filter((f) => f.endsWith('.eml')).map((f) => readFile(join(outbox, f), 'utf8')),
    );
    expect(mails.filter((m) => m.includes('To: desk@voltfolio.test'))).toHaveLength(1);
    const again = await buyer()('GET', `/marketplace/carbon/${id}`);
    expect(again.body.interests).toEqual([expect.objectContaining({ tonnes: 50, note: 'For FY26' })]);
    // Another company sees the project but not this company's interest in it.
    const elsewhere = await as(r.fx.issuer.accessToken('buyer-elsewhere'))(
      'GET',
      `/marketplace/carbon/${id}`,
    );
    expect(elsewhere.body.interests).toEqual([]);
  });

  it('lists every company’s interest to staff: who, which project, when; to no one else', async () => {
    await createUser({ sub: 'desk', email: 'desk@voltfolio.test', companyIds: [r.otherId], isAdmin: true });
    const res = await as(r.fx.issuer.accessToken('desk'))('GET', '/util/marketplace-interests');
    expect(res.status).toBe(200);
    const rows = res.body.data as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({
        companyId: r.demoId,
        projectName: expect.stringMatching(/^Example: .*/),
        isExample: true,
        tonnes: 50,
        note: 'For FY26',
        userSub: 'buyer',
        userEmail: 'buyer@demo.test',
      }),
    ]);
    expect(Date.now() - Date.parse(String(rows[0]?.createdAt))).toBeLessThan(10 * 60_000);
    expect((await buyer()('GET', '/util/marketplace-interests')).status).toBe(403);
  });

  it('is for company users: a member granted one site is refused', async () => {
    expect((await as(r.tokens.siteUser)('GET', '/marketplace/carbon')).status).toBe(403);
    expect((await as(r.tokens.siteUser)('GET', '/marketplace/carbon/project-types')).status).toBe(403);
    expect((await buyer()('GET', '/marketplace/carbon/0123456789abcdef01234567')).status).toBe(404);
    expect((await buyer()('POST', '/marketplace/carbon', { name: 'Mine' })).status).toBe(403);
  });
});
