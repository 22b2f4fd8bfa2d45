import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../shared/files/csv.ts';
import { dieOn } from './crash-support.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { utf8 } from './imports-world.ts';
import { created } from './register-support.ts';

/**
 * An import of sites whose worker dies after creating the new sites, before updating the one that
 * exists, and whose message SQS then delivers again: the finished import creates each new site once and
 * counts it as created, and its rollback removes both and puts the updated site back.
 *
 *   Demo Estates Offices Ltd   the company's entity, holding Moorgate (an office)
 */
let w: ImportWorld;
let owner: string;
let moorgate: string;

const sites = async () =>
  ((await w.get(owner, '/assets?$limit=100')).body.data ?? []) as { siteName: string; assetType: string }[];
const siteTypes = async () =>
  Object.fromEntries((await sites()).map((s) => [s.siteName, s.assetType] as const).sort());

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  const entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  moorgate = await created(w.api, owner, '/assets', {
    siteName: 'Moorgate',
    entityId,
    assetType: 'Office',
    streetAddress: '1 Moorgate',
    postCode: 'EC2R 6AR',
  });
}, 120_000);
afterAll(() => w?.stop());

/** Whether a command the worker sends is a write of the given kind naming `text`. */
const writes = (command: unknown, kind: RegExp, text: string) =>
  kind.test((command as { constructor: { name: string } }).constructor.name) &&
  JSON.stringify((command as { input?: unknown }).input ?? {}).includes(text);

describe('a sites import whose worker dies midway', () => {
  for (const { when, names, dies, landed } of [
    {
      when: 'after creating the new sites, before updating the one that exists',
      names: ['Cheapside', 'Bold Street'],
      dies: (c: unknown) => writes(c, /^(Put|Update|TransactWrite)/, moorgate),
      landed: true,
    },
    {
      when: 'before recording its batch of new sites',
      names: ['Leadenhall', 'Poultry'],
      dies: (c: unknown) => writes(c, /^Put/, '"itemIds"'),
      landed: false,
    },
  ])
    it(`dying ${when}, creates each new site once after redelivery, and its rollback takes back every write`, async () => {
      const before = await siteTypes();
      expect(before).toEqual({ Moorgate: 'Office' });
      const id = await w.upload(
        owner,
        'sites',
        'sites.csv',
        utf8(
          toCsv([
            ['Site name', 'Entity', 'Asset type', 'Street address', 'Postcode'],
            ['Moorgate', 'Demo Estates Offices Ltd', 'Retail', '1 Moorgate', 'EC2R 6AR'],
            [names[0] as string, 'Demo Estates Offices Ltd', 'Retail', '2 Cheapside', 'EC2V 6AA'],
            [names[1] as string, 'Demo Estates Offices Ltd', 'Retail', '17 Bold Street', 'L1 4DN'],
          ]),
        ),
      );
      const info = await w.get(owner, `/imports/${id}/info`);
      const mapping = { ...(info.body.suggested as Record<string, unknown>), mode: 'upsert' };
      expect((await w.post(owner, `/imports/${id}/mapping`, { mapping })).status).toBe(200);
      expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
      const bodies = await w.drain('imports');
      expect(bodies).toHaveLength(1);

      // Nothing the worker sends from the moment it dies lands.
      await dieOn(() => w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>), dies);
      const created = Object.fromEntries(names.map((n) => [n, 'Retail']));
      expect(await siteTypes()).toEqual({ ...(landed ? created : {}), Moorgate: 'Office' });

      // SQS delivers the message again once its visibility timeout passes.
      await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
      expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
        status: 'completed',
        results: { rows: 3, create: 2, update: 1, unchanged: 0, error: 0 },
      });
      expect((await sites()).map((s) => s.siteName).sort()).toEqual([...names, 'Moorgate'].sort());
      expect(await siteTypes()).toEqual({ ...created, Moorgate: 'Retail' });

      const undone = await w.run(owner, id, 'rollback');
      expect(undone.body).toMatchObject({
        status: 'rolled-back',
        rollback: { removed: 2, restored: 1, kept: 0 },
      });
      expect(await siteTypes()).toEqual(before);
    }, 120_000);
});
