import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { localQueueUrl } from '../../infra/local/environment.ts';
import { DEMO_ESTATES_ASSETS } from '../../infra/local/seed/demo-estates-assets.ts';
import { DEMO_USERS, type GrantPlan, ROLE_PLANS } from '../../infra/local/seed/demo-users.ts';
import type { Grants } from '../../shared/schemas/company.ts';
import { BUCKETS, QUEUES } from '../../shared/system/functions.ts';
import { type ItemType, RESOURCES } from '../../shared/system/resources.ts';
import { genericRoutes, HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

export type Api = (req: TestRequest) => Promise<TestResponse>;

export interface AccessFixture {
  fx: ApiFixture;
  api: Api;
  accountsDir: string;
  outboxDir: string;
  /** The S3 and SQS emulator, when asked for. */
  awsEndpoint?: string;
  stop(): Promise<void>;
}

/**
 * The API fixture plus what sign-in administration needs: a local account store and a mail outbox. With
 * `aws`, an S3 and SQS emulator holds every declared bucket and queue, so any route that stores files or
 * sends messages works as it does on the local stack.
 */
export async function startAccessFixture(opts: { aws?: boolean } = {}): Promise<AccessFixture> {
  const fx = await startApiFixture();
  const dir = await mkdtemp(join(tmpdir(), 'voltfolio-access-'));
  const accountsDir = join(dir, 'oidc');
  const outboxDir = join(dir, 'outbox');
  const env: Record<string, string> = {
    IDENTITY_PROVIDER: 'local',
    LOCAL_ACCOUNTS_DIR: accountsDir,
    OUTBOX_DIR: outboxDir,
    APP_URL: 'http://localhost:3000',
    LIVE_ENDPOINT: 'http://127.0.0.1:9',
  };
  for (const bucket of BUCKETS) env[`BUCKET_${bucket.toUpperCase()}`] = `voltfolio-${bucket}`;
  let aws: Awaited<ReturnType<typeof startFauxqs>> | undefined;
  if (opts.aws) {
    aws = await startFauxqs({ port: 0, logger: false });
    const client = {
      region: 'eu-west-2',
      endpoint: aws.address,
      credentials: { accessKeyId: 't', secretAccessKey: 't' },
    };
    const s3 = new S3Client({ ...client, forcePathStyle: true });
    for (const bucket of BUCKETS) await s3.send(new CreateBucketCommand({ Bucket: `voltfolio-${bucket}` }));
    const sqs = new SQSClient(client);
    for (const queue of QUEUES) {
      for (const name of [queue, `${queue}-dlq`]) {
        await sqs.send(new CreateQueueCommand({ QueueName: name }));
        // The local stack's form: the emulator's own address, which resolves, unlike the host it answers with.
        env[`QUEUE_URL_${name.toUpperCase().replaceAll('-', '_')}`] = localQueueUrl(aws.address, name);
      }
    }
    Object.assign(env, {
      AWS_ENDPOINT_URL_S3: aws.address,
      AWS_ENDPOINT_URL_SQS: aws.address,
      S3_FORCE_PATH_STYLE: 'true',
    });
  }
  Object.assign(process.env, env);
  const api = await loadApi();
  return {
    fx,
    api,
    accountsDir,
    outboxDir,
    awsEndpoint: aws?.address,
    stop: async () => {
      await fx.stop();
      await aws?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A real (tiny, valid) PNG of the given size: signature, IHDR, one IDAT, IEND. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc((width + 1) * height))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const GROUP = 'Demo Estates Group plc';
const OFFICES = 'Demo Estates Offices Ltd';

export interface CompanyWorld {
  companyId: string;
  entities: Map<string, string>;
  assets: Map<string, string>;
  accounts: Map<string, string>;
  /** The entity, asset and account calls are aimed at: some demo users may read or write them, others not. */
  probeItems: Record<ItemType, string>;
  /**
   * One item of every company resource, keyed by resource name; one that hangs off an asset or account
   * hangs off the probe item. `recommendations/global` is a recommendation of no site.
   */
  probes: Map<string, string>;
  /** One item of each sub-resource under its resource's probe, keyed `resource/sub`. */
  subProbes: Map<string, string>;
  kioskId: string;
  machineId: string;
}

export interface DemoUser {
  email: string;
  sub: string;
  token: string;
  isAdmin: boolean;
  companyId: string;
  /** Held directly and through the role, in the company they are in. */
  permissions: string[];
  grants: Grants;
}

export interface DemoWorld {
  demo: CompanyWorld;
  northwind: CompanyWorld;
  users: DemoUser[];
  user(email: string): DemoUser;
  /**
   * Where each item sits: asset → entity, account → asset, entity → parent entity, and a probe that hangs
   * off an asset or account → that item.
   */
  parents: Map<string, string>;
  /** Writes a seeded item back as it was seeded: calls that delete or change it leave the next caller the same. */
  reseed(id: string): Promise<void>;
}

/**
 * A small copy of the demo data with the same users, roles, permissions and grants as the local seed
 * (infra/local/seed/demo-users.ts): every entity, asset and account a grant names, in the entity the seed
 * puts it in, plus one item of each company resource to aim calls at.
 */
export async function seedDemoWorld(fx: AccessFixture): Promise<DemoWorld> {
  const { newId } = await import('../../functions/core/lib/ids.ts');
  const { putItem } = await import('../../functions/core/data/item-repository.ts');
  const { keys } = await import('../../functions/core/data/keys.ts');
  const { putProfile } = await import('../../functions/core/access/user-repository.ts');
  const { putKioskCredential, putMachine } = await import(
    '../../functions/core/access/credential-repository.ts'
  );
  const { digestOf } = await import('../../functions/core/lib/secrets.ts');

  const parents = new Map<string, string>();
  const now = new Date().toISOString();
  const seeded = new Map<string, () => Promise<void>>();
  const put = async (
    name: string,
    companyId: string | undefined,
    data: Record<string, unknown>,
    id = newId(),
  ) => {
    const decl = RESOURCES.find((r) => r.name === name);
    if (!decl) throw new Error(`no resource ${name}`);
    const pk = keys.collection(companyId ? { companyId } : {}, name);
    const write = () =>
      putItem(
        { pk, indexes: decl.indexes ?? [], searchFields: decl.searchFields },
        { _id: id, ...(companyId ? { companyId } : {}), createdAt: now, updatedAt: now, ...data },
      );
    await write();
    seeded.set(id, write);
    return id;
  };
  const putSub = async (name: string, companyId: string, parentId: string, sub: string) => {
    const id = newId();
    const pk = keys.subCollection({ companyId }, name, parentId, sub);
    const write = () =>
      putItem(
        { pk, indexes: [], searchFields: [] },
        { _id: id, companyId, createdAt: now, updatedAt: now, name: `Probe ${sub}`, date: '2025-01-01' },
      );
    await write();
    seeded.set(id, write);
    return id;
  };

  const named = (pick: (g: GrantPlan) => readonly string[] | undefined) =>
    new Set(
      DEMO_USERS.flatMap((u) => u.memberships.flatMap((m) => [...(m.grants ? (pick(m.grants) ?? []) : [])])),
    );
  const accountNames = named((g) => [...(g.accounts?.read ?? []), ...(g.accounts?.write ?? [])]);
  const assetNames = named((g) => [...(g.assets?.read ?? []), ...(g.assets?.write ?? [])]);
  const entityNames = named((g) => [...(g.entities?.read ?? []), ...(g.entities?.write ?? [])]);
  const siteOf = (account: string) =>
    DEMO_ESTATES_ASSETS.map((a) => a.siteName)
      .filter((s) => account.startsWith(`${s} `))
      .sort((a, b) => b.length - a.length)[0] ?? account.split(' ').slice(0, -1).join(' ');
  for (const a of accountNames) assetNames.add(siteOf(a));
  const entityOf = (site: string) => DEMO_ESTATES_ASSETS.find((a) => a.siteName === site)?.entity ?? OFFICES;
  for (const s of assetNames) entityNames.add(entityOf(s));

  async function company(key: 'demo' | 'northwind', name: string): Promise<CompanyWorld> {
    const companyId = await put('companies', undefined, {
      name,
      settings: { isDemo: key === 'demo', showLogo: false },
    });
    const entities = new Map<string, string>();
    const assets = new Map<string, string>();
    const accounts = new Map<string, string>();
    const group = await put('entities', companyId, {
      legalName: key === 'demo' ? GROUP : `${name} Holdings`,
    });
    entities.set(key === 'demo' ? GROUP : `${name} Holdings`, group);
    const entityList = key === 'demo' ? [...entityNames] : [`${name} Offices`];
    for (const e of entityList) {
      if (entities.has(e)) continue;
      const id = await put('entities', companyId, { legalName: e, parentEntityId: group });
      entities.set(e, id);
      parents.set(id, group);
    }
    const assetList = key === 'demo' ? [...assetNames] : ['Northwind House'];
    for (const s of assetList) {
      const entityId = entities.get(key === 'demo' ? entityOf(s) : `${name} Offices`) as string;
      const id = await put('assets', companyId, { siteName: s, entityId, status: 'active', images: [] });
      assets.set(s, id);
      parents.set(id, entityId);
    }
    const accountList = key === 'demo' ? [...accountNames] : ['Northwind House Electricity'];
    for (const n of accountList) {
      const assetId = assets.get(key === 'demo' ? siteOf(n) : 'Northwind House') as string;
      const id = await put('accounts', companyId, {
        name: n,
        type: 'electricity',
        assetId,
        status: 'active',
        tags: [],
      });
      accounts.set(n, id);
      parents.set(id, assetId);
    }
    const pick = (map: Map<string, string>, name: string) =>
      map.get(name) ?? ([...map.values()].at(-1) as string);
    const probeItems: Record<ItemType, string> = {
      entities: pick(entities, 'Demo Estates Retail Ltd'),
      assets: pick(assets, 'Hardman Court'),
      accounts: pick(accounts, 'Aldgate House Electricity'),
    };
    const probes = new Map<string, string>();
    const subProbes = new Map<string, string>();
    for (const r of RESOURCES) {
      if (r.scope !== 'company' || r.itemType || r.name === 'users') continue;
      const parentId = r.parent ? probeItems[r.parent.type] : undefined;
      const parent = r.parent
        ? { [r.parent.field]: r.parent.field === 'assetIds' ? [parentId] : parentId }
        : {};
      const id = await put(r.name, companyId, { name: `Probe ${r.name}`, ...parent });
      probes.set(r.name, id);
      if (parentId) parents.set(id, parentId);
    }
    probes.set(
      'recommendations/global',
      await put('recommendations', companyId, { title: 'Probe global recommendation', name: 'Probe' }),
    );
    for (const r of RESOURCES) {
      const parentId = r.itemType ? probeItems[r.itemType] : probes.get(r.name);
      if (!parentId || r.scope !== 'company') continue;
      for (const sub of r.subResources ?? [])
        subProbes.set(`${r.name}/${sub}`, await putSub(r.name, companyId, parentId, sub));
    }
    const kioskId = probes.get('kiosks') as string;
    await putKioskCredential({ kioskId, companyId, digest: digestOf('probe-secret'), rotatedAt: now });
    const machineId = newId();
    await putMachine(
      {
        machineId,
        companyId,
        name: 'Report renderer',
        permissions: ['company_user'],
        createdAt: now,
        createdBy: 'seed',
      },
      digestOf('probe-key'),
    );
    return { companyId, entities, assets, accounts, probeItems, probes, subProbes, kioskId, machineId };
  }

  const demo = await company('demo', 'Demo Estates Ltd');
  const northwind = await company('northwind', 'Northwind Property Co');
  const worlds = { demo, northwind };
  const roleIds = { demo: new Map<string, string>(), northwind: new Map<string, string>() };
  for (const key of ['demo', 'northwind'] as const) {
    for (const role of ROLE_PLANS) {
      roleIds[key].set(
        role.key,
        await put('roles', worlds[key].companyId, { name: role.name, permissions: [...role.permissions] }),
      );
    }
  }

  const accounts: Record<string, unknown>[] = [];
  const users: DemoUser[] = [];
  for (const plan of DEMO_USERS) {
    const sub = randomUUID();
    const first = plan.memberships[0];
    let firstView: DemoUser | undefined;
    for (const m of plan.memberships) {
      const world = worlds[m.company];
      const resolve = (names: readonly string[] | undefined, ids: Map<string, string>) =>
        (names ?? []).map((n) => ids.get(n) as string);
      const grants: Grants = {
        entities: {
          read: resolve(m.grants?.entities?.read, world.entities),
          write: resolve(m.grants?.entities?.write, world.entities),
        },
        assets: {
          read: resolve(m.grants?.assets?.read, world.assets),
          write: resolve(m.grants?.assets?.write, world.assets),
        },
        accounts: {
          read: resolve(m.grants?.accounts?.read, world.accounts),
          write: resolve(m.grants?.accounts?.write, world.accounts),
        },
      };
      const roleId = m.role ? roleIds[m.company].get(m.role) : undefined;
      await put(
        'users',
        world.companyId,
        {
          email: plan.email,
          name: plan.name,
          ...(roleId ? { roleId } : {}),
          permissions: [...(m.permissions ?? [])],
          grants,
        },
        sub,
      );
      if (m === first) {
        const rolePermissions = ROLE_PLANS.find((r) => r.key === m.role)?.permissions ?? [];
        firstView = {
          email: plan.email,
          sub,
          token: fx.fx.issuer.accessToken(sub),
          isAdmin: plan.isAdmin === true,
          companyId: world.companyId,
          permissions: [...new Set([...(m.permissions ?? []), ...rolePermissions])],
          grants,
        };
      }
    }
    await putProfile({
      sub,
      email: plan.email,
      name: plan.name,
      isAdmin: plan.isAdmin === true,
      currentCompanyId: worlds[first?.company ?? 'demo'].companyId,
      companyIds: plan.memberships.map((m) => worlds[m.company].companyId),
    });
    accounts.push({ sub, email: plan.email, name: plan.name, passwordHash: 'scrypt$unused$unused' });
    if (firstView) users.push(firstView);
  }
  await import('node:fs/promises').then((fs) => fs.mkdir(fx.accountsDir, { recursive: true }));
  await writeFile(join(fx.accountsDir, 'accounts.json'), JSON.stringify(accounts, null, 2));
  const user = (email: string) => {
    const found = users.find((u) => u.email === email);
    if (!found) throw new Error(`no demo user ${email}`);
    return found;
  };
  const reseed = async (id: string) => {
    const write = seeded.get(id);
    if (!write) throw new Error(`${id} was not seeded`);
    await write();
  };
  return { demo, northwind, users, user, parents, reseed };
}

/** A member of the company whose only grant is reading one site, holding `permissions`: its token. */
export async function oneSiteMember(
  fx: AccessFixture,
  companyId: string,
  site: string,
  member: { email: string; permissions: string[] },
): Promise<string> {
  const { newId } = await import('../../functions/core/lib/ids.ts');
  const { putItem, declaredRef } = await import('../../functions/core/data/item-repository.ts');
  const { putProfile } = await import('../../functions/core/access/user-repository.ts');
  const now = new Date().toISOString();
  const sub = newId();
  await putItem(declaredRef('users', { companyId }), {
    _id: sub,
    companyId,
    email: member.email,
    name: 'One site',
    permissions: member.permissions,
    grants: {
      entities: { read: [], write: [] },
      assets: { read: [site], write: [] },
      accounts: { read: [], write: [] },
    },
    createdAt: now,
    updatedAt: now,
  });
  await putProfile({
    sub,
    email: member.email,
    name: 'One site',
    isAdmin: false,
    currentCompanyId: companyId,
    companyIds: [companyId],
  });
  return fx.fx.issuer.accessToken(sub);
}

/** The GET routes the named areas declare, their resources' generic reads included. */
export async function areaReads(areaNames: readonly string[]): Promise<HttpRoute[]> {
  const { AREAS } = await import('../../shared/system/areas.ts');
  const keyOf = (r: HttpRoute) => `${r.method} ${r.path}`;
  const areaRoutes = new Set(
    AREAS.filter((a) => areaNames.includes(a.name)).flatMap((a) =>
      [...(a.routes ?? []), ...(a.resources ?? []).flatMap(genericRoutes)].map(keyOf),
    ),
  );
  return HTTP_ROUTES.filter((r) => r.method === 'GET' && areaRoutes.has(keyOf(r)));
}

/** Whom a walked read is aimed at: the caller's granted items, or items out of its reach. */
type Reach = 'granted' | 'hidden';

/**
 * Calls every read as one caller: aimed at the granted items (`aimAt`) and, where its path names an item,
 * at hidden ones, then at whatever else `alsoAt` gives. A 5xx is a leak, and so is whatever `leaksIn` finds
 * in an answer's text (its body and headers); answers are counted by status, and the ids of `mustSee` that
 * answers of 200 name are noted, to show the caller was not simply refused everything.
 */
export async function walkReads(
  fx: AccessFixture,
  token: string,
  reads: readonly HttpRoute[],
  walk: {
    aimAt(route: HttpRoute, reach: Reach): string;
    alsoAt?(route: HttpRoute): string[];
    mustSee: readonly string[];
    leaksIn(path: string, res: TestResponse, text: string): string[];
  },
): Promise<{ leaks: string[]; answered: Map<number, number>; seen: Set<string> }> {
  const leaks: string[] = [];
  const answered = new Map<number, number>();
  const seen = new Set<string>();
  for (const route of reads) {
    const reaches: Reach[] = route.path.includes('{') ? ['granted', 'hidden'] : ['granted'];
    const paths = [...reaches.map((reach) => walk.aimAt(route, reach)), ...(walk.alsoAt?.(route) ?? [])];
    for (const path of paths) {
      const res = await fx.api({ method: 'GET', path, token });
      answered.set(res.status, (answered.get(res.status) ?? 0) + 1);
      if (res.status >= 500) leaks.push(`${path}: ${res.status}`);
      const text = `${JSON.stringify(res.body)} ${JSON.stringify(res.headers)}`;
      leaks.push(...walk.leaksIn(path, res, text));
      if (res.status === 200) for (const id of walk.mustSee) if (text.includes(id)) seen.add(id);
    }
  }
  return { leaks, answered, seen };
}
