import { parseDate } from '../../shared/imports/import-values.ts';
import { contractCreateSchema } from '../../shared/schemas/account-contracts.ts';
import { CONTRACT_IMPORT_COLUMNS } from '../../shared/schemas/register-imports.ts';
import type { PlannedItem, RollbackRules, RowPlanner } from '../core/imports/register-import-service.ts';
import { csvUpload, importRollback, RowProblems } from '../core/imports/register-import-service.ts';
import type { Operations } from '../core/middleware/api-context.ts';
import { findSupplier } from '../suppliers/index.ts';
import { contractsRef } from './account-repository.ts';
import { contractFieldErrors } from './contract-service.ts';
import { meterMatcher, yesNo } from './meter-rows.ts';

/**
 * POST /accounts/upload-contract-csv and the contracts import of the wizard: each row is a contract of
 * one meter (named by its id or its MPAN / MPRN), judged by the rules and with the messages of
 * POST /accounts/{id}/contracts. Contracts live under their meter, so the batch names each one's place.
 */

/** A date cell as the create call takes it: DD/MM/YYYY (as UK users write) or ISO; else left for the schema. */
const isoOr = (text: string | undefined) => (text === undefined ? undefined : (parseDate(text) ?? text));

function contractInput(v: Readonly<Record<string, string>>) {
  return {
    name: v.name,
    ...(v.reference ? { reference: v.reference } : {}),
    ...(v.supplierId ? { supplierId: v.supplierId } : {}),
    startDate: isoOr(v.startDate),
    endDate: isoOr(v.endDate),
    ...(v.status ? { status: v.status.trim().toLowerCase() } : {}),
    ...(v.isRenewable !== undefined ? { isRenewable: yesNo(v.isRenewable) } : {}),
    ...(v.regoBacked !== undefined ? { regoBacked: yesNo(v.regoBacked) } : {}),
    ...(v.notes ? { notes: v.notes } : {}),
  };
}

export const planContractRows: RowPlanner = async (caller, rows, batch) => {
  const companyId = caller.companyId;
  const meterOf = await meterMatcher(caller);
  const problems = new RowProblems();
  const items: PlannedItem[] = [];
  const suppliers = new Map<string, boolean>();
  const supplierExists = async (id: string) => {
    let known = suppliers.get(id);
    if (known === undefined) {
      known = (await findSupplier(id)) !== undefined;
      suppliers.set(id, known);
    }
    return known;
  };
  for (const r of rows) {
    const meter = await meterOf(r.values);
    if ('message' in meter) problems.add(r.row, meter.field, meter.message);
    const parsed = contractCreateSchema.safeParse(contractInput(r.values));
    if (!parsed.success) {
      problems.addZod(r.row, parsed.error);
      continue;
    }
    const { file: _file, ...data } = parsed.data;
    const errors = await contractFieldErrors(data, supplierExists);
    for (const [field, message] of Object.entries(errors)) problems.add(r.row, field, message);
    if (!('account' in meter) || Object.keys(errors).length > 0) continue;
    const accountId = meter.account._id;
    const item = batch.stamp({ ...data, accountId });
    items.push({ row: r.row, name: data.name, item, ref: contractsRef(companyId, accountId) });
  }
  return { problems, items };
};

export const CONTRACT_ROLLBACK: RollbackRules = {
  nameOf: (c) => String(c.name ?? c._id),
  keepers: async () => new Map(),
};

export const CONTRACT_IMPORT_OPERATIONS: Operations = {
  'accounts.uploadContractCsv': csvUpload(CONTRACT_IMPORT_COLUMNS, planContractRows, 'contracts'),
  'accounts.contractImportRollback': importRollback('contracts', CONTRACT_ROLLBACK),
};
