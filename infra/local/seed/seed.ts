import { newId } from '../../../functions/lib/ids.ts';
import { registerCaptureAddress } from '../../../functions/repositories/company-repository.ts';
import { putAccountMonths, putRollups } from '../../../functions/repositories/consumption-repository.ts';
import { putItem } from '../../../functions/repositories/item-repository.ts';
import { writeActivity } from '../../../functions/services/activity-service.ts';
import { contractsRef } from '../../../functions/services/contract-store.ts';
import { EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import { monthSlots } from './consumption-model.ts';
import { DEMO_KIOSK, type DemoDevices, seedDemoDevices } from './demo-devices.ts';
import { DEMO_ESTATES } from './demo-estates.ts';
import { type CompanyKey, DEMO_PASSWORD, ROLE_PLANS, type RoleKey } from './demo-users.ts';
import { assetSvg, assetThumbnailSvg, uploadAssetImage } from './images.ts';
import { seedInvoiceTemplates } from './invoice-templates.ts';
import { NORTHWIND } from './northwind.ts';
import { type PlannedCompany, planCompany } from './plan-company.ts';
import { seedBenchmarks, seedCountries, seedSuppliers } from './reference-data.ts';
import { seedMemberships, seedRoles, seedSignInAccounts } from './seed-users.ts';
import { collection, inPool, putItems, stamped, subCollection } from './writer.ts';

/** Months of history per account, ending with the last complete month. */
export const HISTORY_MONTHS = 36;

export interface SeedResult {
  companies: { id: string; name: string }[];
  users: { email: string; role: string }[];
  password: string;
  /** The demo kiosk and machine, with the secrets the banner prints. */
  devices: DemoDevices;
  counts: Record<string, number>;
}

/**
 * Fills an empty local stack with demo data: two companies with entities, assets (with pictures),
 * accounts, three years of monthly consumption, invoices and roll-ups, supply contracts and meter
 * readings, roles, users who can sign in, notifications and an activity log. Expects the table and
 * buckets to exist and the environment to point at them. `origin` is the browser-facing origin of the
 * stack; stored links are relative to it.
 */
export async function seedDemoData(opts: { stateDir: string; origin: string }): Promise<SeedResult> {
  const now = new Date();
  const slots = monthSlots(now, HISTORY_MONTHS);
  const subs = await seedSignInAccounts(opts.stateDir);
  const sub = (email: string) => {
    const s = subs.get(email);
    if (!s) throw new Error(`No sign-in account for ${email}`);
    return s;
  };
  const staff = sub('admin@voltfolio.test');

  const [suppliers, countries, benchmarks] = await Promise.all([
    seedSuppliers(staff),
    seedCountries(staff),
    seedBenchmarks(staff),
  ]);

  const companies: Record<CompanyKey, PlannedCompany> = {
    demo: planCompany(DEMO_ESTATES, suppliers, slots, sub('owner@demo.test'), now),
    northwind: planCompany(NORTHWIND, suppliers, slots, sub('owner@northwind.test'), now),
  };
  const templates = await seedInvoiceTemplates(suppliers, staff);
  const counts: Record<string, number> = { suppliers: suppliers.length, countries, benchmarks, templates };
  const add = (key: string, n: number) => {
    counts[key] = (counts[key] ?? 0) + n;
  };

  const roles = {} as Record<CompanyKey, Map<RoleKey, string>>;
  for (const key of ['demo', 'northwind'] as const) {
    const company = companies[key];
    await writeCompany(company, add);
    roles[key] = await seedRoles(company.companyId, company.company.createdBy as string);
    add('roles', ROLE_PLANS.length);
  }

  const { memberships, users } = await seedMemberships(subs, companies, roles);
  add('memberships', memberships);
  add('users', users.length);
  add('notifications', await seedNotifications(companies, sub));
  add('logs', await seedActivity(companies.demo, sub('owner@demo.test')));
  const kioskSite = companies.demo.ids.assets.get(DEMO_KIOSK.site);
  if (!kioskSite) throw new Error(`The demo kiosk's site ${DEMO_KIOSK.site} is not in the demo data`);
  const devices = await seedDemoDevices(companies.demo.companyId, kioskSite, sub('owner@demo.test'));
  add('kiosks', 1);
  add('machines', 1);

  return {
    companies: Object.values(companies).map((c) => ({ id: c.companyId, name: String(c.company.name) })),
    users,
    password: DEMO_PASSWORD,
    devices,
    counts,
  };
}

async function writeCompany(company: PlannedCompany, add: (key: string, n: number) => void): Promise<void> {
  const cid = company.companyId;
  await putItem(collection('companies'), company.company);
  add('companies', 1);
  const settings = company.company.settings as { invoiceCaptureEmail?: string } | undefined;
  if (settings?.invoiceCaptureEmail) await registerCaptureAddress(settings.invoiceCaptureEmail, cid);

  await inPool(company.assets, 8, async (asset) => {
    const { plan, index } = asset;
    const image = await uploadAssetImage(
      asset.item._id,
      asset.imageId,
      assetSvg(plan.siteName, plan.address.town, plan.assetType, index),
      assetThumbnailSvg(plan.assetType, index),
    );
    asset.item.images = [image];
  });
  add('images', company.assets.length);

  const invoices = company.accounts.flatMap((a) => a.invoices);
  await Promise.all([
    putItems(collection('entities', cid), company.entities),
    putItems(
      collection('assets', cid),
      company.assets.map((a) => a.item),
    ),
    putItems(collection('asset-groups', cid), company.assetGroups),
    putItems(
      collection('accounts', cid),
      company.accounts.map((a) => a.item),
    ),
    putItems(collection('invoices', cid), invoices),
    inPool(company.statusHistory, 4, (h) =>
      putItem(subCollection('accounts', cid, h.accountId, 'status-history'), h.item),
    ),
    inPool(company.accounts, 6, (a) => putAccountMonths(cid, a.item._id, a.months)),
    inPool(chunks(company.rollups, 100), 4, (rows) => putRollups(cid, rows)),
    inPool(company.contracts, 4, (c) => putItems(contractsRef(cid, c.accountId), [c.item])),
    putItems(collection('readings', cid), company.readings),
  ]);
  add('entities', company.entities.length);
  add('assets', company.assets.length);
  add('assetGroups', company.assetGroups.length);
  add('accounts', company.accounts.length);
  add('subMeters', company.accounts.filter((a) => a.isSubMeter).length);
  add('inactiveAccounts', company.accounts.filter((a) => a.item.status === 'inactive').length);
  add('invoices', invoices.length);
  add(
    'accountMonths',
    company.accounts.reduce((n, a) => n + a.months.length, 0),
  );
  add('rollups', company.rollups.length);
  add('contracts', company.contracts.length);
  add('readings', company.readings.length);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function seedNotifications(
  companies: Record<CompanyKey, PlannedCompany>,
  sub: (email: string) => string,
): Promise<number> {
  const demo = companies.demo;
  const asset = (name: string) => demo.ids.assets.get(name) as string;
  const account = (name: string) => demo.ids.accounts.get(name) as string;
  const forDemo = (userSub: string) => [
    {
      userSub,
      content: '3 invoices from EDF Energy failed validation and need review.',
      route: '/invoice-validation',
      icon: 'alert-triangle',
    },
    {
      userSub,
      content: 'Electricity use at Temple Quay Point was 14% above the same month last year.',
      route: `/assets/${asset('Temple Quay Point')}`,
      icon: 'trending-up',
    },
    {
      userSub,
      content: 'The gas supply at 128 High Street Guildford has been closed.',
      route: `/accounts/${account('128 High Street Guildford Gas')}`,
      icon: 'info',
    },
    {
      userSub,
      content: 'Your monthly portfolio report is ready.',
      route: '/reports',
      icon: 'file-text',
      isSeen: true,
    },
  ];
  const demoItems = [...forDemo(sub('owner@demo.test')), ...forDemo(sub('user@demo.test'))].map((n) =>
    stamped('notifications', n, {
      id: newId(),
      companyId: demo.companyId,
      createdBy: sub('admin@voltfolio.test'),
    }),
  );
  const northwindItems = [
    {
      userSub: sub('owner@northwind.test'),
      content: 'Welcome to Voltfolio. Start by checking your assets and their accounts.',
      route: '/assets',
      icon: 'info',
    },
  ].map((n) =>
    stamped('notifications', n, {
      id: newId(),
      companyId: companies.northwind.companyId,
      createdBy: sub('admin@voltfolio.test'),
    }),
  );
  await putItems(collection('notifications', demo.companyId), demoItems);
  await putItems(collection('notifications', companies.northwind.companyId), northwindItems);
  return demoItems.length + northwindItems.length;
}

/** A few entries in Demo Estates' activity log, written by the activity service as the owner. */
async function seedActivity(demo: PlannedCompany, ownerSub: string): Promise<number> {
  const caller = {
    kind: 'user' as const,
    sub: ownerSub,
    email: 'owner@demo.test',
    name: 'Olivia Bennett',
    companyId: demo.companyId,
    isAdmin: false,
    permissions: ['company_owner', 'company_admin'] as const,
    grants: EMPTY_GRANTS,
    roles: ['Owner'],
  };
  const batchId = newId();
  const entries = [
    {
      type: 'import',
      model: 'assets',
      message: `${demo.assets.length} assets imported from assets.csv`,
      batchId,
    },
    {
      type: 'import',
      model: 'accounts',
      message: `${demo.accounts.length} accounts imported from accounts.csv`,
      batchId,
    },
    { type: 'update', model: 'accounts', modelId: demo.ids.accounts.get('128 High Street Guildford Gas') },
    { type: 'create', model: 'asset-groups', modelId: demo.assetGroups[0]?._id },
  ];
  for (const e of entries) await writeActivity(caller, e);
  return entries.length;
}
