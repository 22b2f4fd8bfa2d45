import type { BroadcastSent } from '../../shared/schemas/responses/staff-tools.ts';
import {
  type AdminOverview,
  activityQuerySchema,
  assetFinderQuerySchema,
  broadcastSchema,
  emailDownloadQuery,
  liveConnectionsQuerySchema,
  productSettingsSchema,
  type QueueDepth,
  siteQuery,
  staffEmailsQuerySchema,
} from '../../shared/schemas/staff-admin.ts';
import { QUEUES } from '../../shared/system/functions.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { queueCounts } from '../core/adapters/queue.ts';
import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { notFound } from '../core/lib/errors.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import { connectionsOfCompany } from '../core/live/live-connection-repository.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import {
  activityOfCompany,
  type CompanySummary,
  checksOfCompany,
  countOf,
  emailAttachmentsOf,
  emailsOfCompany,
  findEmail,
  findSite,
  listCompanies,
  metersOfSite,
  readProductSettings,
  sitesOfCompany,
  writeProductSettings,
} from './admin-repository.ts';
import { firstIdAt } from './global-stats-service.ts';

/** Staff admin calls: every one is on a staff-only route, so the middleware has refused anyone else. */

const pad = (n: number) => String(n).padStart(2, '0');
const lastIdAt = (ms: number) => `${ms.toString(16).padStart(12, '0').slice(-12)}${'f'.repeat(12)}`;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const COMPANIES_AT_ONCE = 4;
const LAST_ERRORS = 10;

async function queueDepths(): Promise<QueueDepth[]> {
  return Promise.all(
    QUEUES.map(async (queue) => {
      const [main, dead] = await Promise.all([
        queueCounts(queue).catch(() => undefined),
        queueCounts(`${queue}-dlq`).catch(() => undefined),
      ]);
      return {
        queue,
        visible: main?.visible ?? null,
        inFlight: main?.inFlight ?? null,
        deadLetters: dead ? dead.visible + dead.inFlight : null,
      };
    }),
  );
}

/** GET /util/admin-overview: the /admin dashboard's counts across companies, queues and latest errors. */
const overview = operation({}, async (): Promise<OpResult> => {
  const now = new Date();
  const fromId = firstIdAt(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const companies = await listCompanies();
  const [rows, queues] = await Promise.all([
    inPool(companies, COMPANIES_AT_ONCE, async (company) => {
      const id = company._id;
      const [users, sites, meters, bills, failures, errors] = await Promise.all([
        countOf(id, 'users'),
        countOf(id, 'assets'),
        countOf(id, 'accounts'),
        countOf(id, 'invoices', { fromId }),
        countOf(id, 'invoice-validation', { fromId, statuses: ['failed', 'error'] }),
        checksOfCompany(id, { fromId, equal: { status: 'error' }, limit: LAST_ERRORS }),
      ]);
      return { company, users, sites, meters, bills, failures, errors };
    }),
    queueDepths(),
  ]);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
  const lastErrors = rows
    .flatMap((r) =>
      r.errors.map((e) => ({
        at: String(e.updatedAt ?? e.createdAt ?? ''),
        companyId: r.company._id,
        companyName: r.company.name ?? '',
        message: String(e.reason ?? 'The bill could not be read'),
        model: 'invoices',
      })),
    )
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, LAST_ERRORS);
  const body: AdminOverview = {
    generatedAt: now.toISOString(),
    month: `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`,
    totals: {
      companies: companies.length,
      users: sum((r) => r.users),
      sites: sum((r) => r.sites),
      meters: sum((r) => r.meters),
      billsThisMonth: sum((r) => r.bills),
      validationFailures: sum((r) => r.failures),
    },
    queues,
    lastErrors,
  };
  return { body, headers: { 'cache-control': 'no-store' } };
});

const getSettings = operation({}, async (): Promise<OpResult> => ({ body: await readProductSettings() }));

const saveSettings = operation({}, async (ctx): Promise<OpResult> => {
  const settings = parseOrThrow(productSettingsSchema, ctx.body);
  const saved = await writeProductSettings(settings, ctx.caller.sub);
  await writeActivity(ctx.caller, { type: 'update', model: 'product-settings', message: 'Product settings' });
  return { body: saved };
});

const nameMap = (companies: readonly CompanySummary[]) =>
  new Map(companies.map((c) => [c._id, c.name ?? ''] as const));

/** GET /util/activity: the activity log of every company (or one), newest first. */
const activity = operation({ query: activityQuerySchema }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  const companies = await listCompanies();
  const names = nameMap(companies);
  const chosen = q.companyId ? companies.filter((c) => c._id === q.companyId) : companies;
  const equal: Record<string, string> = {};
  if (q.type) equal.type = q.type;
  if (q.model) equal.model = q.model;
  if (q.userSub) equal.userSub = q.userSub;
  const range = {
    ...(q.from ? { fromId: firstIdAt(dayStart(q.from)) } : {}),
    ...(q.to ? { toId: lastIdAt(dayStart(q.to) + 86_400_000 - 1) } : {}),
  };
  const perCompany = await inPool(chosen, COMPANIES_AT_ONCE, (c) =>
    activityOfCompany(c._id, { ...range, equal, limit: q.limit }),
  );
  const data = perCompany
    .flat()
    .sort((a, b) => b._id.localeCompare(a._id))
    .slice(0, q.limit)
    .map((item) => ({ ...item, companyName: names.get(String(item.companyId)) ?? '' }));
  return { body: { data, total: data.length, limit: q.limit } };
});

/** GET /util/emails: every e-mail the product received, by company or all, with status and attachments. */
const emails = operation({ query: staffEmailsQuerySchema }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  const companies = await listCompanies();
  const names = nameMap(companies);
  const equal = q.status ? { status: q.status } : undefined;
  const targets: (string | undefined)[] =
    q.companyId === 'unmatched'
      ? [undefined]
      : q.companyId
        ? [q.companyId]
        : [undefined, ...companies.map((c) => c._id)];
  const perCompany = await inPool(targets, COMPANIES_AT_ONCE, async (companyId) =>
    (await emailsOfCompany(companyId, { equal, limit: q.limit })).map((e) => ({
      ...e,
      companyId: companyId ?? null,
      companyName: companyId ? (names.get(companyId) ?? '') : null,
    })),
  );
  const data = perCompany
    .flat()
    .sort((a, b) => b._id.localeCompare(a._id))
    .slice(0, q.limit);
  return { body: { data, total: data.length, limit: q.limit } };
});

/** GET /util/emails/{id}/attachments/{attachmentId}/download?companyId=: any company's attachment. */
const emailDownload = operation(
  { params: ['id', 'attachmentId'], query: emailDownloadQuery },
  async (ctx): Promise<OpResult> => {
    const companyId = ctx.query.companyId === 'unmatched' ? undefined : ctx.query.companyId;
    const email = await findEmail(companyId, ctx.params.id);
    if (!email) throw notFound('E-mail not found');
    const attachment = emailAttachmentsOf(email).find((a) => a._id === ctx.params.attachmentId);
    if (!attachment || typeof attachment.key !== 'string') throw notFound('Attachment not found');
    const name = String(attachment.fileName ?? 'attachment');
    const url = await presignGet(bucketName('uploads'), attachment.key, 900, name);
    return { body: { url, name }, headers: { 'cache-control': 'no-store' } };
  },
);

/** GET /util/live-connections: open WebSocket connections, by company and user. */
const liveConnections = operation({ query: liveConnectionsQuerySchema }, async (ctx): Promise<OpResult> => {
  const companies = await listCompanies();
  const chosen = ctx.query.companyId ? companies.filter((c) => c._id === ctx.query.companyId) : companies;
  const data = await inPool(chosen, COMPANIES_AT_ONCE, async (company) => {
    const connections = await connectionsOfCompany(company._id);
    const users = new Map<string, { sub: string; connections: number; since: string }>();
    for (const c of connections) {
      const u = users.get(c.sub) ?? { sub: c.sub, connections: 0, since: c.connectedAt };
      u.connections += 1;
      if (c.connectedAt < u.since) u.since = c.connectedAt;
      users.set(c.sub, u);
    }
    return {
      companyId: company._id,
      companyName: company.name ?? '',
      connections: connections.length,
      users: [...users.values()],
    };
  });
  const withAny = data.filter((d) => d.connections > 0);
  return {
    body: { data: withAny, total: withAny.reduce((s, d) => s + d.connections, 0) },
    headers: { 'cache-control': 'no-store' },
  };
});

/** POST /util/live-connections/broadcast: a test message to a company's (or one user's) open screens. */
const broadcast = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow(broadcastSchema, ctx.body);
  const companies = await listCompanies();
  if (!companies.some((c) => c._id === data.companyId)) throw notFound('No such company');
  const delivered = await publishToCompany(
    data.companyId,
    { type: 'staff.broadcast', data: { message: data.message, from: ctx.caller.name ?? 'Voltfolio' } },
    ctx.log,
    data.userSub,
  );
  return { body: { delivered } satisfies BroadcastSent };
});

/** GET /util/asset-finder?q=: sites of every company whose name, street or postcode holds the text. */
const findAssets = operation({ query: assetFinderQuerySchema }, async (ctx): Promise<OpResult> => {
  const text = ctx.query.q.toLowerCase();
  const companies = await listCompanies();
  const perCompany = await inPool(companies, COMPANIES_AT_ONCE, async (company) =>
    (await sitesOfCompany(company._id))
      .filter((site) => {
        const address = site.address ?? {};
        return [site.siteName, address.streetAddress, address.locality, address.postCode].some(
          (v) => typeof v === 'string' && v.toLowerCase().includes(text),
        );
      })
      .map((site) => ({ ...site, companyId: company._id, companyName: company.name ?? '' })),
  );
  const data = perCompany.flat().slice(0, 100);
  return { body: { data, total: data.length } };
});

/** GET /util/asset-finder/{id}?companyId=: one site of any company with its meters, to read only. */
const siteView = operation({ params: ['id'], query: siteQuery }, async (ctx): Promise<OpResult> => {
  const companies = await listCompanies();
  const company = companies.find((c) => c._id === ctx.query.companyId);
  const site = company ? await findSite(company._id, ctx.params.id) : undefined;
  if (!company || !site) throw notFound('No such site');
  const meters = await metersOfSite(company._id, site._id, 200);
  return {
    body: {
      site,
      company: { _id: company._id, name: company.name ?? '' },
      meters,
    },
  };
});

export const STAFF_ADMIN_OPERATIONS: Operations = {
  'admin.overview': overview,
  'admin.settings': getSettings,
  'admin.saveSettings': saveSettings,
  'admin.activity': activity,
  'admin.emails': emails,
  'admin.emailDownload': emailDownload,
  'admin.liveConnections': liveConnections,
  'admin.broadcast': broadcast,
  'admin.findAssets': findAssets,
  'admin.siteView': siteView,
};
