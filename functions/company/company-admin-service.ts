import type { Caller } from '../../shared/access/caller.ts';
import { companiesPageQuery } from '../../shared/schemas/queries.ts';
import { portalPasswordHeld, removePortalPassword, storePortalPassword } from '../automation/index.ts';
import {
  getValidationRuleChanges,
  joinCompany,
  listAllCompanies,
  putCompany,
  putMembership,
  putRole,
  putValidationRuleChanges,
} from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { startSearchIndex } from '../core/search-index/search-index-service.ts';
import { findSupplier } from '../suppliers/index.ts';
import type { SettingsChanges } from './company-admin-bodies.ts';
import {
  changeStoredCompany,
  companyIdForCaptureAddress,
  getCompany,
  registerCaptureAddress,
  type StoredCompany,
  type StoredCompanySettings,
  unregisterCaptureAddress,
} from './company-repository.ts';

const inCompany = (caller: Caller, companyId: string): Caller => ({ ...caller, companyId });

export async function loadCompany(id: string): Promise<StoredCompany> {
  const company = await getCompany(id);
  if (!company) throw notFound();
  return company;
}

export const settingsOf = (company: StoredCompany): StoredCompanySettings => company.settings ?? {};

/**
 * Changes a company's settings (and, for staff, its name) as stored when written, retried if another
 * write lands in between, so two admins changing different settings at once both keep theirs. `change`
 * gets a copy of the stored settings and may run more than once.
 */
export async function saveSettings(
  ctx: OpContext,
  company: StoredCompany,
  change: (settings: StoredCompanySettings) => StoredCompanySettings,
  what: string,
  name?: string,
) {
  const next = await changeStoredCompany(company._id, (current) => ({
    ...current,
    ...(name !== undefined ? { name } : {}),
    settings: change({ ...settingsOf(current) }),
    updatedAt: new Date().toISOString(),
  }));
  if (!next) throw notFound();
  await writeActivity(inCompany(ctx.caller, company._id), {
    type: 'update',
    model: 'companies',
    modelId: company._id,
    message: what,
  });
  return next;
}

/** Claims an invoice capture address for a company: one address, one company. */
async function moveCaptureAddress(companyId: string, from: unknown, to: string | null | undefined) {
  const old = typeof from === 'string' ? from : undefined;
  if (to && to.toLowerCase() !== old?.toLowerCase()) {
    const owner = await companyIdForCaptureAddress(to);
    if (owner && owner !== companyId) {
      throw formError({ 'settings.invoiceCaptureEmail': 'This address is already used by another company' });
    }
    await registerCaptureAddress(to, companyId);
  }
  if (old && (!to || to.toLowerCase() !== old.toLowerCase())) await unregisterCaptureAddress(old, companyId);
}

const global = operation({ query: companiesPageQuery }, async (ctx): Promise<OpResult> => {
  const { limit, skip } = ctx.query;
  const { data, total } = await listAllCompanies(limit, skip);
  return {
    body: {
      data: data.map((c) => ({ _id: c._id, name: c.name, settings: c.settings, createdAt: c.createdAt })),
      total,
      limit,
      skip,
    },
  };
});

/** Roles a new company starts with; a name starting with 'entity' marks entity-group users. */
const STARTING_ROLES = [
  { name: 'Owner', permissions: ['company_owner', 'company_admin'] },
  { name: 'Company user', permissions: ['company_user'] },
  { name: 'Bill validator', permissions: ['bill_validation'] },
  { name: 'entity viewer', permissions: ['entity_user'] },
] as const;

/** The company's write schemas load with the first write that parses one (see company-admin-bodies.ts). */
const bodies = async () => (await import('./company-admin-bodies.ts')).companyAdminBodies;

/** Staff create a company with its starting roles and, optionally, its first owner. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow((await bodies()).create, ctx.body);
  const now = new Date().toISOString();
  const companyId = newId();
  const { owner, ...data } = input;
  await moveCaptureAddress(companyId, undefined, data.settings.invoiceCaptureEmail);
  const company: StoredItem = {
    ...data,
    _id: companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putCompany(company, { mustNotExist: true });
  await startSearchIndex(companyId);
  const roleIds: string[] = [];
  for (const role of STARTING_ROLES) {
    const id = newId();
    roleIds.push(id);
    await putRole(companyId, {
      _id: id,
      companyId,
      ...role,
      permissions: [...role.permissions],
      createdAt: now,
      updatedAt: now,
    });
  }
  const actor = inCompany(ctx.caller, companyId);
  if (owner) {
    const { identityProvider } = await import('../core/adapters/identity.ts');
    const { identity } = await identityProvider().createUser(owner);
    await putMembership(companyId, {
      _id: identity.sub,
      companyId,
      email: identity.email,
      name: owner.name,
      roleId: roleIds[0],
      permissions: [],
      grants: {
        entities: { read: [], write: [] },
        assets: { read: [], write: [] },
        accounts: { read: [], write: [] },
      },
      createdAt: now,
      updatedAt: now,
      createdBy: ctx.caller.sub,
    });
    await joinCompany({ sub: identity.sub, email: identity.email, name: owner.name }, companyId);
  }
  await writeActivity(actor, {
    type: 'create',
    model: 'companies',
    modelId: companyId,
    message: String(data.name),
  });
  return { status: 201, body: company };
});

/** The settings with a change applied: a null goes back to the default by leaving the setting out. */
function withChanges(settings: StoredCompanySettings, changes: SettingsChanges): StoredCompanySettings {
  const { invoiceCaptureEmail, invoiceFileNameLimit, ...given } = changes;
  const next: StoredCompanySettings = { ...settings, ...given };
  if (invoiceCaptureEmail === null) delete next.invoiceCaptureEmail;
  else if (invoiceCaptureEmail !== undefined) next.invoiceCaptureEmail = invoiceCaptureEmail;
  if (invoiceFileNameLimit === null) delete next.invoiceFileNameLimit;
  else if (invoiceFileNameLimit !== undefined) next.invoiceFileNameLimit = invoiceFileNameLimit;
  return next;
}

/** Company settings (01 §3) by the company's administrators; the name and demo flag by staff only. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const input = parseOrThrow((await bodies()).update, ctx.body ?? {});
  if (!ctx.caller.isAdmin && (input.name !== undefined || input.settings?.isDemo !== undefined)) {
    throw formError({
      [input.name !== undefined ? 'name' : 'settings.isDemo']: 'Only staff can change this',
    });
  }
  const changes = input.settings ?? {};
  if ('invoiceCaptureEmail' in changes) {
    await moveCaptureAddress(
      company._id,
      settingsOf(company).invoiceCaptureEmail,
      changes.invoiceCaptureEmail,
    );
  }
  const changed = [...(input.name !== undefined ? ['name'] : []), ...Object.keys(changes)];
  const next = await saveSettings(
    ctx,
    company,
    (settings) => withChanges(settings, changes),
    `Settings changed: ${changed.join(', ') || 'nothing'}`,
    input.name,
  );
  return { body: next };
});

const roles = operation({}, async (ctx): Promise<OpResult> => {
  const data = (await listRoles(ctx.caller.companyId))
    .filter((r) => r.deleted !== true)
    .map((r) => ({ _id: r._id, name: r.name, permissions: r.permissions ?? [] }));
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

const setSupplierPortal = operation({ params: ['id', 'supplierId'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const supplierId = ctx.params.supplierId;
  const { password, ...portal } = parseOrThrow((await bodies()).portal, ctx.body);
  if (!(await findSupplier(supplierId))) throw notFound();
  if (password !== undefined) await storePortalPassword(company._id, supplierId, password);
  else if (!(await portalPasswordHeld(company._id, supplierId)))
    throw formError({ password: 'This field is required' });
  const next = await saveSettings(
    ctx,
    company,
    (settings) => ({
      ...settings,
      supplierPortals: {
        ...settings.supplierPortals,
        [supplierId]: portal,
      },
    }),
    `Supplier portal ${supplierId} set`,
  );
  return { body: next };
});

const removeSupplierPortal = operation({ params: ['id', 'supplierId'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const supplierId = ctx.params.supplierId;
  const next = await saveSettings(
    ctx,
    company,
    (settings) => {
      const portals = { ...settings.supplierPortals };
      if (!(supplierId in portals)) throw notFound();
      delete portals[supplierId];
      return { ...settings, supplierPortals: portals };
    },
    `Supplier portal ${supplierId} removed`,
  );
  await removePortalPassword(company._id, supplierId);
  return { body: next };
});

const validationRules = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const { applyRuleChanges } = await import('../../shared/validation/rules.ts');
  const data = applyRuleChanges(await getValidationRuleChanges(company._id));
  return { body: { data, total: data.length } };
});

const updateValidationRules = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const { rules } = parseOrThrow((await bodies()).rules, ctx.body);
  const { applyRuleChanges } = await import('../../shared/validation/rules.ts');
  const merged = { ...(await getValidationRuleChanges(company._id)), ...rules };
  await putValidationRuleChanges(company._id, merged);
  await writeActivity(inCompany(ctx.caller, company._id), {
    type: 'update',
    model: 'invoice-validation-rules',
    modelId: company._id,
    message: `Rules changed: ${Object.keys(rules).join(', ')}`,
  });
  const data = applyRuleChanges(merged);
  return { body: { data, total: data.length } };
});

export const COMPANY_ADMIN_OPERATIONS: Operations = {
  'companies.global': global,
  'companies.create': create,
  'companies.update': update,
  'companies.roles': roles,
  'companies.setSupplierPortal': setSupplierPortal,
  'companies.removeSupplierPortal': removeSupplierPortal,
  'companies.validationRules': validationRules,
  'companies.updateValidationRules': updateValidationRules,
};
