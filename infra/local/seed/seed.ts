import { accountLinkErrors } from '../../../functions/accounts/account-links.ts';
import { ACCOUNT_STATUS_OPERATIONS } from '../../../functions/accounts/account-status-service.ts';
import {
  putAccountMonths,
  putRollups,
  rebuildPortfolioRollups,
} from '../../../functions/accounts/consumption-repository.ts';
import { CONTRACT_OPERATIONS } from '../../../functions/accounts/contract-service.ts';
import { readingFieldErrors } from '../../../functions/accounts/reading-rules.ts';
import { markSiteYearsBuilt } from '../../../functions/accounts/site-year-repository.ts';
import { COMPANY_ADMIN_OPERATIONS } from '../../../functions/company/company-admin-service.ts';
import { listRoles } from '../../../functions/core/access/user-repository.ts';
import { putObject } from '../../../functions/core/adapters/s3.ts';
import { bucketName } from '../../../functions/core/config.ts';
import { allCollectionItems, type StoredItem } from '../../../functions/core/data/item-repository.ts';
import { putNewItems } from '../../../functions/core/imports/import-batch-repository.ts';
import {
  indexNewItems,
  type PlannedImport,
  startImport,
  writeImport,
} from '../../../functions/core/imports/register-import-service.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { inPool } from '../../../functions/core/lib/in-pool.ts';
import { createLogger } from '../../../functions/core/lib/logger.ts';
import { resourceRef } from '../../../functions/core/resources/resource-refs.ts';
import { validationItemFor } from '../../../functions/invoices/invoice-records.ts';
import { capturesRef, invoicesRef, validationsRef } from '../../../functions/invoices/invoice-repository.ts';
import { validateStoredInvoice } from '../../../functions/invoices/validation-service.ts';
import { putNotifications } from '../../../functions/notifications/missing-bill-repository.ts';
import { ASSET_GROUP_OPERATIONS } from '../../../functions/portfolios/asset-group-service.ts';
import type { Caller } from '../../../shared/access/caller.ts';
import { seedCarbonProjects } from './carbon-projects.ts';
import { monthSlots } from './consumption-model.ts';
import { DEMO_KIOSK, type DemoDevices, seedDemoDevices } from './demo-devices.ts';
import { DEMO_ESTATES } from './demo-estates.ts';
import { seedDemoHalfHourly } from './demo-half-hourly.ts';
import { seedDemoThreads } from './demo-threads.ts';
import { type CompanyKey, DEMO_PASSWORD, DEMO_USERS, ROLE_PLANS, type RoleKey } from './demo-users.ts';
import { assetSvg, assetThumbnailSvg, uploadAssetImage } from './images.ts';
import { invoiceDocument } from './invoice-documents.ts';
import { seedInvoiceTemplates } from './invoice-templates.ts';
import { NORTHWIND } from './northwind.ts';
import { type PlannedCompany, planCompany } from './plan-company.ts';
import { captureRecordOf } from './plan-invoices.ts';
import { bodyOf, stamped } from './plan-items.ts';
import { seedBenchmarks, seedCountries, seedSuppliers } from './reference-data.ts';
import { seedMemberships, seedSignInAccounts } from './seed-users.ts';
import { callOperation, companyUser, staffUser } from './service-calls.ts';

const validationLog = createLogger({ component: 'seed', fn: 'validation' }, 'warn');

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
  const person = (email: string) => {
    const s = subs.get(email);
    const plan = DEMO_USERS.find((u) => u.email === email);
    if (!s || !plan) throw new Error(`No sign-in account for ${email}`);
    return { sub: s, email, name: plan.name };
  };
  const sub = (email: string) => person(email).sub;
  const staff = staffUser('', person('admin@voltfolio.test'));

  const counts: Record<string, number> = {};
  const add = (key: string, n: number) => {
    counts[key] = (counts[key] ?? 0) + n;
  };

  // Staff make each company (POST /companies), which gives it its starting roles; its demo data is then
  // planned under the id the company was given. Reference data is loaded meanwhile.
  const plans = { demo: DEMO_ESTATES, northwind: NORTHWIND } as const;
  const made = Promise.all(
    (['demo', 'northwind'] as const).map((key) =>
      callOperation<StoredItem>(COMPANY_ADMIN_OPERATIONS, 'companies.create', staff, {
        body: { name: plans[key].name, settings: plans[key].settings },
      }),
    ),
  );
  const [suppliers, countries, benchmarks, carbonProjects] = await Promise.all([
    seedSuppliers(staff),
    seedCountries(staff),
    seedBenchmarks(staff),
    seedCarbonProjects(staff),
  ]);
  Object.assign(counts, { suppliers: suppliers.length, countries, benchmarks, carbonProjects });
  const supplierNames = new Map(suppliers.map((s) => [s.id, s.name]));
  const templates = seedInvoiceTemplates(suppliers, staff.sub);
  const [demoMade, northwindMade] = await made;
  if (!demoMade || !northwindMade) throw new Error('The demo companies were not made');
  const ids = { demo: demoMade._id, northwind: northwindMade._id };
  add('companies', 2);

  const owners = { demo: person('owner@demo.test'), northwind: person('owner@northwind.test') };
  // Each company's latest bills going through validation and their documents being stored, while the
  // rest of the seed goes on.
  const reviews: Promise<void>[] = [];
  const ownerRole = ROLE_PLANS.find((r) => r.key === 'owner');
  if (!ownerRole) throw new Error('The demo roles have no owner');
  const companies = {} as Record<CompanyKey, PlannedCompany>;
  const roles = {} as Record<CompanyKey, Map<RoleKey, string>>;
  await Promise.all(
    (['demo', 'northwind'] as const).map(async (key) => {
      companies[key] = planCompany(plans[key], suppliers, slots, owners[key].sub, now, ids[key]);
      roles[key] = await roleIdsOf(ids[key]);
      add('roles', roles[key].size);
      const written = await writeCompany(
        companies[key],
        companyUser(ids[key], owners[key], ownerRole),
        add,
        supplierNames,
      );
      reviews.push(written.validation);
    }),
  );
  add('templates', await templates);
  // A few demo sites' smart meters: after the roll-ups are written whole, as interval writes add to them.
  const halfHourly = seedDemoHalfHourly(companies.demo, now, owners.demo.sub);
  halfHourly.catch(() => undefined);

  const { memberships, users } = await seedMemberships(subs, companies, roles);
  add('memberships', memberships);
  add('users', users.length);
  add('notifications', await seedNotifications(companies, sub));
  const userRole = ROLE_PLANS.find((r) => r.key === 'user');
  if (!userRole) throw new Error('The demo roles have no company user');
  for (const key of ['demo', 'northwind'] as const) {
    const colleague = key === 'demo' ? person('user@demo.test') : person('multi@demo.test');
    add(
      'messages',
      await seedDemoThreads(
        companies[key],
        {
          owner: companyUser(ids[key], owners[key], ownerRole),
          colleague: companyUser(ids[key], colleague, userRole),
        },
        key,
      ),
    );
  }
  const kioskSite = companies.demo.ids.assets.get(DEMO_KIOSK.site);
  if (!kioskSite) throw new Error(`The demo kiosk's site ${DEMO_KIOSK.site} is not in the demo data`);
  const devices = await seedDemoDevices(companies.demo.companyId, kioskSite, sub('owner@demo.test'));
  add('kiosks', 1);
  add('machines', 1);
  await Promise.all(reviews);
  const interval = await halfHourly;
  add('accounts', interval.meters);
  add('halfHourlyDays', interval.days);
  // The smart meters' months, made by their interval data.
  add('accountMonths', interval.months);
  // The services wrote the activity log as they went; the summary says how long it is.
  const both = [companies.demo, companies.northwind];
  for (const c of both) add('logs', (await allCollectionItems({ companyId: c.companyId }, 'logs')).length);

  return {
    companies: both.map((c) => ({ id: c.companyId, name: String(c.company.name) })),
    users,
    password: DEMO_PASSWORD,
    devices,
    counts,
  };
}

/** The ids of the roles a new company starts with, by the demo's names for them. */
async function roleIdsOf(companyId: string): Promise<Map<RoleKey, string>> {
  const made = await listRoles(companyId);
  const ids = new Map<RoleKey, string>();
  for (const plan of ROLE_PLANS) {
    const role = made.find((r) => r.name === plan.name);
    if (!role) throw new Error(`A new company has no role ${plan.name}`);
    ids.set(plan.key, role._id);
  }
  return ids;
}

/**
 * One company's register and history, written as its owner through the API's own write paths: entities
 * and sites as an import of each (the import's batch record, search index entries and activity entry),
 * asset groups, closures and contracts by their calls; accounts and the history as said below. Answers
 * the validation of its latest bills, under way.
 */
async function writeCompany(
  company: PlannedCompany,
  owner: Caller,
  add: (key: string, n: number) => void,
  supplierNames: ReadonlyMap<string, string>,
): Promise<{ validation: Promise<void> }> {
  // The history needs nothing else written first, and is most of the work: it goes on meanwhile, as
  // do the documents of the bills awaiting review.
  const history = writeHistory(company);
  const records = writeCaptureRecords(company);
  const documents = records.then(() => storeInvoiceDocuments(company, supplierNames));
  // Awaited once the bills are validated; until then its failure must not count as unhandled.
  documents.catch(() => undefined);
  // Pictures are stored as files beside the site, not made by the upload worker: it reads photographs
  // (PNG, JPEG), where the demo's pictures are drawings.
  const pictures = inPool(company.assets, 8, async (asset) => {
    const { plan, index } = asset;
    const image = await uploadAssetImage(
      asset.item._id,
      asset.imageId,
      assetSvg(plan.siteName, plan.address.town, plan.assetType, index),
      assetThumbnailSvg(plan.assetType, index),
    );
    asset.item.images = [image];
  });

  await importAs(
    owner,
    'entities',
    company.entities.map((e) => ({ item: e, name: String(e.legalName) })),
  );
  await pictures;
  add('images', company.assets.length);
  await importAs(
    owner,
    'assets',
    company.assets.map((a) => ({ item: a.item, name: String(a.item.siteName) })),
  );
  add('entities', company.entities.length);
  add('assets', company.assets.length);

  const groups: { _id: string; assetIds: string[] }[] = [];
  await Promise.all([
    writeAccounts(company, owner),
    history,
    records,
    (async () => {
      for (const group of company.assetGroups) {
        groups.push(
          await callOperation(ASSET_GROUP_OPERATIONS, 'assetGroups.create', owner, { body: bodyOf(group) }),
        );
      }
    })(),
  ]);
  // The roll-ups were written whole, around the deltas that keep a portfolio's: count them in now.
  for (const group of groups) await rebuildPortfolioRollups(company.companyId, group._id, group.assetIds);
  const invoices = company.accounts.reduce((n, a) => n + a.invoices.length, 0);
  add('assetGroups', company.assetGroups.length);
  add('accounts', company.accounts.length);
  add('subMeters', company.accounts.filter((a) => a.isSubMeter).length);
  add('inactiveAccounts', company.accounts.filter((a) => a.item.status === 'inactive').length);
  add('contracts', company.contracts.length);
  add('invoices', invoices);
  add(
    'accountMonths',
    company.accounts.reduce((n, a) => n + a.months.length, 0),
  );
  add('rollups', company.rollups.length);
  add('readings', company.readings.length);
  add('invoicesAwaitingReview', company.awaitingReview.length);
  // Validation compares each bill with its account, contract, months and other bills, all written now;
  // it needs no document, so the documents may still be on their way.
  const validation = Promise.all([validateAwaitingReview(company), documents]).then(() => undefined);
  // Awaited at the end of the seed, which then fails with its error; until then it must not count as unhandled.
  validation.catch(() => undefined);
  return { validation };
}

/**
 * Planned items written as their owner's import of one CSV file of them, named after the model, keeping
 * their planned ids: the file's first row is its header, so the items are rows 2 onwards.
 */
async function importAs(
  owner: Caller,
  model: PlannedImport['model'],
  rows: readonly { item: StoredItem; name: string }[],
): Promise<void> {
  const batch = startImport(owner);
  await writeImport(owner, batch, {
    model,
    fileName: `${model}.csv`,
    items: rows.map(({ item, name }, i) => ({ row: i + 2, name, item: batch.stamp(bodyOf(item), item._id) })),
  });
}

/**
 * What capture records of each bill awaiting review: its capture, done, and its validation, pending, as
 * capture writes it before queueing the bill. Before the documents, so that each object's arrival finds
 * its document captured already; before validation, which fills the pending item in.
 */
async function writeCaptureRecords(company: PlannedCompany): Promise<void> {
  const cid = company.companyId;
  await putNewItems(
    company.awaitingReview.flatMap((invoice) => {
      const capture = captureRecordOf(invoice);
      const at = String(invoice.createdAt);
      return [
        { ref: capturesRef(cid), item: capture },
        { ref: validationsRef(cid), item: validationItemFor(invoice, capture, 'pending', at) },
      ];
    }),
  );
}

/** The PDF of each bill awaiting review, in the uploads bucket under its capture key. */
async function storeInvoiceDocuments(
  company: PlannedCompany,
  supplierNames: ReadonlyMap<string, string>,
): Promise<void> {
  await inPool(company.awaitingReview, 4, async (invoice) => {
    const supplier = supplierNames.get(String(invoice.supplierId)) ?? 'Supplier';
    const bytes = await invoiceDocument(invoice, supplier);
    await putObject(bucketName('uploads'), String(invoice.key), bytes, 'application/pdf');
  });
}

/**
 * Runs the bills awaiting review through bill validation, as the validation worker does for each bill
 * capture queues: each account's bills oldest first, so each is checked after the bills before it.
 */
async function validateAwaitingReview(company: PlannedCompany): Promise<void> {
  const byAccount = [...Map.groupBy(company.awaitingReview, (i) => String(i.accountId)).values()];
  await inPool(byAccount, 8, async (invoices) => {
    for (const invoice of invoices) {
      const validation = await validateStoredInvoice(company.companyId, invoice._id, validationLog);
      if (!validation) throw new Error(`Demo invoice ${invoice._id} was not validated`);
    }
  });
}

/**
 * Accounts, then what hangs off them through the account pages' calls: closures and contracts. The
 * accounts themselves are written in two batches (supplies, then the sub-meters that name them), each
 * account first checked by the rules POST /accounts applies to its links, and indexed for search as an
 * import indexes what it adds: a call each, with an activity entry each, would bury the log's story.
 */
async function writeAccounts(company: PlannedCompany, owner: Caller): Promise<void> {
  const cid = company.companyId;
  const accounts = company.accounts.map((a) => a.item);
  for (const batch of [
    accounts.filter((a) => !a.parentAccountId),
    accounts.filter((a) => a.parentAccountId),
  ]) {
    await inPool(batch, 8, async (a) => {
      const errors = await accountLinkErrors(owner, {
        assetId: String(a.assetId),
        type: String(a.type),
        parentAccountId: a.parentAccountId as string | undefined,
        supplierId: a.supplierId as string | undefined,
        meterPointNumber: a.meterPointNumber as string | undefined,
      });
      if (Object.keys(errors).length > 0)
        throw new Error(`Demo account ${String(a.name)} is refused: ${JSON.stringify(errors)}`);
    });
    await putNewItems(batch.map((item) => ({ ref: resourceRef(cid, 'accounts'), item })));
    await indexNewItems(cid, 'accounts', batch);
  }
  await Promise.all([
    inPool(company.statusHistory, 2, async (h) => {
      await callOperation(ACCOUNT_STATUS_OPERATIONS, 'accounts.statusHistory.create', owner, {
        params: { id: h.accountId },
        body: bodyOf(h.item),
      });
    }),
    inPool(company.contracts, 4, async (c) => {
      await callOperation(CONTRACT_OPERATIONS, 'contracts.create', owner, {
        params: { id: c.accountId },
        body: bodyOf(c.item),
      });
    }),
  ]);
}

/**
 * Three years of bills, monthly figures, roll-ups and meter readings: thousands of items. A call each
 * (an invoice confirmation adds its month to three items by conditional update) would take minutes, so
 * they are written with the batch writes of the repositories the API reads them with, under the keys
 * those repositories give; readings are checked by the rules a submitted reading must pass.
 */
async function writeHistory(company: PlannedCompany): Promise<void> {
  const cid = company.companyId;
  for (const [accountId, readings] of Map.groupBy(company.readings, (r) => String(r.accountId))) {
    for (const r of readings) {
      const errors = readingFieldErrors(
        { date: String(r.date), value: Number(r.value) },
        readings.filter((o) => o !== r),
      );
      if (Object.keys(errors).length > 0)
        throw new Error(`A demo reading of ${accountId} is refused: ${JSON.stringify(errors)}`);
    }
  }
  await Promise.all([
    putNewItems(company.accounts.flatMap((a) => a.invoices).map((item) => ({ ref: invoicesRef(cid), item }))),
    putNewItems(company.readings.map((item) => ({ ref: resourceRef(cid, 'readings'), item }))),
    inPool(company.accounts, 6, (a) => putAccountMonths(cid, a.item._id, a.months)),
    inPool(chunks(company.rollups, 100), 4, (rows) => putRollups(cid, rows)),
  ]);
  // putRollups kept every site's years as it went: nothing older needs filling in.
  await markSiteYearsBuilt(cid);
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
  await putNotifications(demo.companyId, demoItems);
  await putNotifications(companies.northwind.companyId, northwindItems);
  return demoItems.length + northwindItems.length;
}
