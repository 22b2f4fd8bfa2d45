import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_VERSION } from '../../functions/core/search-index/search-terms.ts';
import { localBucketName } from '../../infra/local/environment.ts';
import type { Caller } from '../../shared/access/caller.ts';
import { EMPTY_GRANTS } from '../../shared/access/caller.ts';
import { type Item, type SeededStack, startSeededStack } from './seed-fixture.ts';

/** The demo data is written through the API's own services: what they record beside the data is there too. */

let stack: SeededStack;
let demoId: string;
let northwindId: string;
const inPartition = (pk: string) => stack.inPartition(pk);

beforeAll(async () => {
  stack = await startSeededStack();
  ({ demoId, northwindId } = stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const owner = (companyId: string, sub: string): Caller => ({
  kind: 'user',
  sub,
  email: 'owner@demo.test',
  name: 'Olivia Bennett',
  companyId,
  isAdmin: false,
  permissions: ['company_owner', 'company_admin'],
  grants: EMPTY_GRANTS,
  roles: ['Owner'],
});

describe('demo data written through the services', () => {
  it('keeps the demo counts, and every count is what the table holds', () => {
    const { counts } = stack.result;
    expect(counts).toMatchObject({
      companies: 2,
      roles: 8,
      entities: 7,
      assets: 25,
      images: 25,
      assetGroups: 4,
      // 74 billed meters and 3 smart meters of half-hourly data.
      accounts: 77,
      subMeters: 3,
      inactiveAccounts: 3,
      contracts: 40,
      readings: 252,
      memberships: 12,
      users: 11,
      notifications: 9,
      kiosks: 1,
      machines: 1,
      suppliers: 20,
      countries: 249,
      benchmarks: 7,
      // Three discussions on Demo Estates' sites, one on Northwind's.
      messages: 4,
    });
    const inBoth = (name: string) =>
      inPartition(`C#${demoId}#${name}`).length + inPartition(`C#${northwindId}#${name}`).length;
    expect(inBoth('entities')).toBe(counts.entities);
    expect(inBoth('assets')).toBe(counts.assets);
    expect(inBoth('asset-groups')).toBe(counts.assetGroups);
    expect(inBoth('accounts')).toBe(counts.accounts);
    expect(inBoth('roles')).toBe(counts.roles);
    expect(inBoth('users')).toBe(counts.memberships);
    expect(inBoth('notifications')).toBe(counts.notifications);
    expect(inBoth('messages')).toBe(counts.messages);
    expect(inBoth('logs')).toBe(counts.logs);
    // Each company starts with the roles company creation gives it, once.
    expect(
      inPartition(`C#${demoId}#roles`)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Bill validator', 'Company user', 'Owner', 'entity viewer']);
  });

  it('puts every entity, site and account in the global search index as it is written', () => {
    for (const companyId of [demoId, northwindId]) {
      const manifests = new Set(inPartition(`C#${companyId}#search-manifest`).map((m) => m.sk));
      const want = [
        ...inPartition(`C#${companyId}#entities`).map((e) => `entity#${e._id}`),
        ...inPartition(`C#${companyId}#assets`).map((a) => `asset#${a._id}`),
        ...inPartition(`C#${companyId}#accounts`).map((a) => `account#${a._id}`),
      ];
      expect(want.length).toBeGreaterThan(0);
      expect(want.filter((k) => !manifests.has(k))).toEqual([]);
    }
    const site = inPartition(`C#${demoId}#assets`).find((a) => a.siteName === 'Temple Quay Point') as Item;
    const entries = stack.all.filter(
      (i) => i.pk.startsWith(`C#${demoId}#search#`) && i.id === site._id && i.type === 'asset',
    );
    expect(entries.map((e) => e.term)).toContain('templequaypoint');
    // Indexed as written from the company's creation on, so its first search does not build it all again.
    for (const companyId of [demoId, northwindId]) {
      expect(inPartition(`C#${companyId}#search-state`)).toMatchObject([{ version: SEARCH_INDEX_VERSION }]);
    }
  });

  it("shows in Demo Estates' activity log who made the company, its imports, groups and contracts", () => {
    const logs = inPartition(`C#${demoId}#logs`);
    const of = (type: string, model: string) => logs.filter((l) => l.type === type && l.model === model);
    expect(of('create', 'companies')).toMatchObject([
      { userName: 'Alex Carter', message: 'Demo Estates Ltd' },
    ]);
    expect(of('import', 'entities').map((l) => l.message)).toEqual(['4 entities imported from entities.csv']);
    const sites = inPartition(`C#${demoId}#assets`).length;
    expect(of('import', 'assets').map((l) => l.message)).toEqual([`${sites} sites imported from assets.csv`]);
    expect(of('create', 'asset-groups')).toHaveLength(inPartition(`C#${demoId}#asset-groups`).length);
    const contracts = stack.all.filter(
      (i) => i.pk.startsWith(`C#${demoId}#accounts#`) && i.pk.endsWith('#contracts'),
    );
    expect(of('create', 'contracts')).toHaveLength(contracts.length);
    expect(of('create', 'contracts')[0]?.message).toMatch(/^Contract .+ added to .+/);
    expect(logs.every((l) => l.userName === 'Alex Carter' || l.userName === 'Olivia Bennett')).toBe(true);
  });

  it("stores each site's drawings by key, so the site list signs a URL the S3 front accepts", async () => {
    const { presentAsset } = await import('../../functions/assets/asset-records.ts');
    const { HeadObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const s3 = new S3Client({ region: 'eu-west-2', endpoint: stack.awsEndpoint, forcePathStyle: true });
    const sites = inPartition(`C#${demoId}#assets`);
    expect(sites.length).toBeGreaterThan(0);
    for (const site of sites) {
      const [image] = site.images as { key?: string; thumbKey?: string; url?: string; thumbUrl?: string }[];
      // An unsigned address stored in the item would be shown as is, and refused by the S3 front.
      expect(image).toMatchObject({ key: expect.any(String), thumbKey: expect.any(String) });
      expect(image?.url).toBeUndefined();
      expect(image?.thumbUrl).toBeUndefined();
      const shown = (await presentAsset({ ...site, _id: String(site._id) })) as {
        primaryImage?: { thumbUrl?: string };
      };
      expect(shown.primaryImage?.thumbUrl).toContain('X-Amz-Signature=');
      expect(shown.primaryImage?.thumbUrl).toContain(String(image?.thumbKey));
      const head = await s3.send(
        new HeadObjectCommand({ Bucket: localBucketName('documents'), Key: String(image?.thumbKey) }),
      );
      expect(head.ContentType).toBe('image/svg+xml');
    }
  });

  it('closes supplies through their status history, as the account page would', () => {
    const inactive = inPartition(`C#${demoId}#accounts`).filter((a) => a.status === 'inactive');
    expect(inactive.length).toBeGreaterThan(0);
    for (const account of inactive) {
      const history = inPartition(`C#${demoId}#accounts#${account._id}#status-history`);
      expect(history).toMatchObject([{ status: 'inactive', parentId: account._id }]);
    }
  });

  it('can roll back the sites import, which keeps every site because each has meters', async () => {
    const { ASSET_IMPORT_OPERATIONS } = await import('../../functions/assets/asset-import-service.ts');
    const { callOperation } = await import('../../infra/local/seed/service-calls.ts');
    const entry = inPartition(`C#${demoId}#logs`).find((l) => l.type === 'import' && l.model === 'assets');
    const ownerSub = String(entry?.userSub);
    const result = await callOperation<{ removed: number; kept: { reason: string }[] }>(
      ASSET_IMPORT_OPERATIONS,
      'assets.importRollback',
      owner(demoId, ownerSub),
      { body: { batchId: entry?.batchId } },
    );
    expect(result.removed).toBe(0);
    expect(result.kept).toHaveLength(inPartition(`C#${demoId}#assets`).length);
    expect(new Set(result.kept.map((k) => k.reason))).toEqual(
      new Set(['Has meters or projects added since the import']),
    );
  });
});
