import {
  approachOf,
  CARBON_PROJECT_TYPES,
  carbonInterestSchema,
  carbonProjectsQuery,
  MARKETPLACE_MESSAGES,
} from '../../shared/schemas/carbon-marketplace.ts';
import { getCompany } from '../company/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { mailer } from '../core/adapters/mailer.ts';
import { mailConfig } from '../core/config.ts';
import { declaredRef, getItem, putItem, queryAll, type StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef, stampNew } from '../core/resources/resource-refs.ts';
import { gatedBy, listCompanies } from '../staff-tools/index.ts';

/**
 * The carbon marketplace (02 §7): a catalogue of removal and avoidance projects that staff keep and
 * every company reads. A company registers interest in some tonnes and staff follow it up; nothing here
 * touches a company's emissions, which are always reported whole, offsets beside them.
 */

const RESOURCE = 'marketplace/carbon';
const catalogueRef = () => declaredRef(RESOURCE, {});
const interestsRef = (companyId: string, projectId: string) =>
  childRef(companyId, RESOURCE, projectId, 'interests');

const live = (item: StoredItem | undefined) => (item && item.deleted !== true ? item : undefined);

function projectView(item: StoredItem): StoredItem {
  const { _rev: _r, searchText: _s, ...rest } = item;
  return { ...rest, approach: approachOf(String(item.projectType)) };
}

/** GET /marketplace/carbon/project-types: each type with its approach and how many projects offer it. */
const projectTypes = operation({}, async (): Promise<OpResult> => {
  const projects = (await queryAll(catalogueRef().pk)).filter((p) => p.deleted !== true);
  const data = CARBON_PROJECT_TYPES.map((t) => ({
    ...t,
    _id: t.key,
    projects: projects.filter((p) => p.projectType === t.key).length,
  }));
  return { body: { data, total: data.length } };
});

/** GET /marketplace/carbon: the catalogue, filtered, cheapest first. */
const list = operation({ query: carbonProjectsQuery }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  const text = q.query?.trim().toLowerCase();
  const data = (await queryAll(catalogueRef().pk))
    .filter((p) => p.deleted !== true)
    .filter((p) => !q.projectType || p.projectType === q.projectType)
    .filter((p) => !q.approach || approachOf(String(p.projectType)) === q.approach)
    .filter((p) => !q.registry || p.registry === q.registry)
    .filter((p) => !q.country || String(p.country).toLowerCase() === q.country?.toLowerCase())
    .filter((p) => q.minVintage === undefined || Number(p.vintage) >= q.minVintage)
    .filter((p) => q.maxPrice === undefined || Number(p.pricePerTonne) <= q.maxPrice)
    .filter((p) => q.minTonnes === undefined || Number(p.availableTonnes) >= q.minTonnes)
    .filter(
      (p) =>
        !text ||
        [p.name, p.location, p.country, p.description].some((v) =>
          String(v ?? '')
            .toLowerCase()
            .includes(text),
        ),
    )
    .sort(
      (a, b) =>
        Number(a.pricePerTonne) - Number(b.pricePerTonne) || String(a.name).localeCompare(String(b.name)),
    )
    .map(projectView);
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

/** GET /marketplace/carbon/{id}: one project, with the interest the caller's company has registered in it. */
const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const project = live(await getItem(catalogueRef().pk, ctx.params.id));
  if (!project) throw notFound();
  const interests = await queryAll(interestsRef(ctx.caller.companyId, project._id).pk);
  return {
    body: {
      ...projectView(project),
      interests: interests.map((i) => ({
        _id: i._id,
        tonnes: i.tonnes,
        note: i.note,
        createdAt: i.createdAt,
        createdBy: i.createdBy,
      })),
    },
  };
});

/**
 * POST /marketplace/carbon/{id}/interest {tonnes, note}: kept with the company, written to its activity
 * log and e-mailed to staff, who take it up. Interest in an example project is marked so in the e-mail.
 */
const interest = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const project = live(await getItem(catalogueRef().pk, ctx.params.id));
  if (!project) throw notFound();
  const input = parseOrThrow(carbonInterestSchema, ctx.body ?? {});
  if (input.tonnes > Number(project.availableTonnes))
    throw formError({ tonnes: MARKETPLACE_MESSAGES.interestTooLarge });
  const record = stampNew(ctx.caller, {
    projectId: project._id,
    tonnes: input.tonnes,
    note: input.note,
    // Who registered it, as staff follow it up with them.
    ...(ctx.caller.email ? { userEmail: ctx.caller.email } : {}),
    ...(ctx.caller.name ? { userName: ctx.caller.name } : {}),
  });
  await putItem(interestsRef(ctx.caller.companyId, project._id), record, { mustNotExist: true });
  const company = await getCompany(ctx.caller.companyId);
  const companyName = String(company?.name ?? ctx.caller.companyId);
  const who = ctx.caller.email ?? ctx.caller.sub;
  await writeActivity(ctx.caller, {
    type: 'marketplace-interest',
    model: RESOURCE,
    modelId: project._id,
    message: `Interest in ${input.tonnes} t of ${String(project.name)} registered`,
  });
  await mailer().send({
    to: mailConfig().staffTo,
    subject: `${project.isExample === true ? '[Example project] ' : ''}Marketplace interest: ${companyName}, ${input.tonnes} t of ${String(project.name)}`,
    text: [
      `${who} of ${companyName} would like ${input.tonnes} tonnes of ${String(project.name)}`,
      `(${String(project.registry)}, vintage ${String(project.vintage)}, ${String(project.pricePerTonne)} ${String(project.currency ?? 'GBP')} per tonne).`,
      ...(input.note ? ['', `Their note: ${input.note}`] : []),
      '',
      'Voltfolio',
    ].join('\n'),
  });
  return { status: 201, body: { ...record, message: MARKETPLACE_MESSAGES.interestSent } };
});

const PROJECTS_AT_ONCE = 4;

/**
 * GET /util/marketplace-interests: every company's registered interest, newest first, for staff to
 * follow up. Read per company and project (the company list, then each project's interests of each
 * company), so nothing scans the table; a few hundred companies and the catalogue's projects stay cheap.
 */
const interests = operation({}, async (): Promise<OpResult> => {
  const [companies, projects] = await Promise.all([listCompanies(), queryAll(catalogueRef().pk)]);
  const offered = projects.filter((p) => p.deleted !== true);
  const pairs = companies.flatMap((c) => offered.map((p) => ({ company: c, project: p })));
  const found = await inPool(pairs, PROJECTS_AT_ONCE, async ({ company, project }) =>
    (await queryAll(interestsRef(company._id, project._id).pk))
      .filter((i) => i.deleted !== true)
      .map((i) => ({
        _id: i._id,
        companyId: company._id,
        companyName: String(company.name ?? company._id),
        projectId: project._id,
        projectName: String(project.name ?? project._id),
        isExample: project.isExample === true,
        tonnes: Number(i.tonnes),
        ...(typeof i.note === 'string' && i.note ? { note: i.note } : {}),
        userSub: String(i.createdBy ?? ''),
        ...(typeof i.userEmail === 'string' ? { userEmail: i.userEmail } : {}),
        ...(typeof i.userName === 'string' ? { userName: i.userName } : {}),
        createdAt: String(i.createdAt),
      })),
  );
  const data = found.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { body: { data, total: data.length } };
});

export const MARKETPLACE_OPERATIONS: Operations = {
  ...gatedBy('marketplace', {
    'marketplace.projectTypes': projectTypes,
    'marketplace.list': list,
    'marketplace.get': get,
    'marketplace.interest': interest,
  }),
};

/** Staff follow up what was registered even while the marketplace is closed to companies. */
export const MARKETPLACE_STAFF_OPERATIONS: Operations = {
  'marketplace.interests': interests,
};
