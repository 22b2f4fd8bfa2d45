import { caseless } from '../../shared/imports/import-values.ts';
import { accountWizardSchema } from '../../shared/schemas/account-inputs.ts';
import { ACCOUNT_MESSAGES } from '../../shared/schemas/account-rules.ts';
import { ACCOUNT_IMPORT_COLUMNS, IMPORT_MESSAGES } from '../../shared/schemas/register-imports.ts';
import { assetFieldsOf } from '../assets/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import type { PlannedItem, RollbackRules, RowPlanner } from '../core/imports/register-import-service.ts';
import { csvUpload, importRollback, RowProblems } from '../core/imports/register-import-service.ts';
import { FORBIDDEN_MESSAGE } from '../core/lib/errors.ts';
import type { Operations } from '../core/middleware/api-context.ts';
import { accountsResource } from './account-links.ts';
import { allAccounts } from './account-repository.ts';
import { wizardAccountOf } from './account-service.ts';
import { listAccountMonths } from './consumption-repository.ts';

/**
 * POST /accounts/upload-csv and the meters import of the wizard: each row is a meter as the account
 * wizard takes it (its site by id or by name, utility, meter point number, unit, supplier, parent
 * meter), judged by the wizard's own rules and answered with the wizard's own messages.
 */

/** The row as the wizard would send it; the site named by name becomes its id. */
function wizardInput(v: Record<string, string>, assetId: string | undefined) {
  return {
    assetId,
    type: v.type ? caseless(v.type) : undefined,
    ...(v.name ? { name: v.name } : {}),
    ...(v.meterPointNumber ? { meterPointNumber: v.meterPointNumber } : {}),
    ...(v.meterSerialNumber ? { meterSerialNumber: v.meterSerialNumber } : {}),
    ...(v.supplierId ? { supplierId: v.supplierId } : {}),
    ...(v.parentAccountId ? { parentAccountId: v.parentAccountId } : {}),
    ...(v.unit ? { unit: v.unit } : {}),
    ...(v.status ? { status: caseless(v.status) } : {}),
    ...(v.tags
      ? {
          tags: v.tags
            .split(/[;|]/)
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
  };
}

/** Items an import of meters would create, one per good row, and the problems of the others by row. */
export const planAccountRows: RowPlanner = async (caller, rows, batch, replacing) => {
  const companyId = caller.companyId;
  const sites = await assetFieldsOf(companyId, ['siteName']);
  const sitesByName = new Map<string, string[]>();
  for (const s of sites)
    sitesByName.set(caseless(s.siteName), [...(sitesByName.get(caseless(s.siteName)) ?? []), s._id]);
  const resource = accountsResource();
  const resolver = new LineageResolver(companyId, caller);
  const problems = new RowProblems();
  const numbers = new Map<string, number>();
  const items: PlannedItem[] = [];
  for (const r of rows) {
    let assetId = r.values.assetId;
    if (!assetId && r.values.site) {
      const found = sitesByName.get(caseless(r.values.site)) ?? [];
      if (found.length !== 1) {
        problems.add(
          r.row,
          'site',
          found.length === 0
            ? `${ACCOUNT_MESSAGES.assetNotFound}: no site is called "${r.values.site}"`
            : `Several sites are called "${r.values.site}": give its id in assetId`,
        );
        continue;
      }
      assetId = found[0];
    }
    const parsed = accountWizardSchema.safeParse(wizardInput(r.values, assetId));
    if (!parsed.success) {
      problems.addZod(r.row, parsed.error);
      continue;
    }
    const { errors, data } = await wizardAccountOf(caller, parsed.data, resolver, replacing);
    for (const [field, message] of Object.entries(errors)) problems.add(r.row, field, message);
    if (!data) continue;
    const number = typeof data.meterPointNumber === 'string' ? data.meterPointNumber : undefined;
    const earlier = number ? numbers.get(number) : undefined;
    if (number && earlier !== undefined) {
      problems.add(r.row, 'meterPointNumber', `${ACCOUNT_MESSAGES.duplicateMeterPoint} (row ${earlier})`);
      continue;
    }
    if (number) numbers.set(number, r.row);
    const item = batch.stamp(data);
    if (!(await mayAccessItem(resource, caller, item, 'write', resolver))) {
      problems.add(r.row, 'assetId', FORBIDDEN_MESSAGE);
      continue;
    }
    items.push({ row: r.row, name: String(data.name ?? item._id), item });
  }
  return { problems, items };
};

export const ACCOUNT_ROLLBACK: RollbackRules = {
  nameOf: (a) => String(a.name ?? a._id),
  /** A meter that has sub-meters or consumption since the import stays: removing it would orphan them. */
  keepers: async (candidates, companyId) => {
    const kept = new Map<string, string>();
    const ids = new Set(candidates.map((c) => c._id));
    for (const a of await allAccounts(companyId))
      if (a.deleted !== true && typeof a.parentAccountId === 'string' && ids.has(a.parentAccountId))
        kept.set(a.parentAccountId, IMPORT_MESSAGES.accountInUse);
    for (const c of candidates) {
      if (kept.has(c._id)) continue;
      const months = await listAccountMonths(companyId, c._id, '1900-01', '2200-12');
      if (months.length > 0) kept.set(c._id, IMPORT_MESSAGES.accountInUse);
    }
    return kept;
  },
};

export const ACCOUNT_IMPORT_OPERATIONS: Operations = {
  'accounts.uploadCsv': csvUpload(ACCOUNT_IMPORT_COLUMNS, planAccountRows, 'accounts'),
  'accounts.importRollback': importRollback('accounts', ACCOUNT_ROLLBACK),
};
