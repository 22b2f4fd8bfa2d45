import { queryAll, type StoredItem } from '../../../functions/core/data/item-repository.ts';
import { putNewItems } from '../../../functions/core/imports/import-batch-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { declaredResource } from '../../../functions/core/resources/resource-refs.ts';
import { collectionOf } from '../../../functions/core/resources/resource-service.ts';
import type { Caller } from '../../../shared/access/caller.ts';
import { LETI_TARGETS } from '../../../shared/domain/benchmarks.ts';
import { COUNTRIES } from './countries.ts';
import type { SupplierRef } from './plan-accounts.ts';
import { stamped } from './plan-items.ts';
import { SUPPLIERS } from './suppliers.ts';

/**
 * Not through the generic create: the staff who add reference data through the API would leave some
 * 270 entries in a customer company's activity log, and a benchmark's source and check are fields the
 * API does not take. The items are checked by the resource's schema and written where the API keeps them.
 */
const refOf = (name: string, staff: Caller) => collectionOf(declaredResource(name), staff);

async function putAll(name: string, staff: Caller, items: readonly StoredItem[]): Promise<void> {
  const ref = refOf(name, staff);
  await putNewItems(items.map((item) => ({ ref, item })));
}

/**
 * Reference data shared by every company. Seeding it twice adds nothing: suppliers are matched by name,
 * and countries and benchmarks are left alone once present.
 */
export async function seedSuppliers(staff: Caller): Promise<SupplierRef[]> {
  const createdBy = staff.sub;
  const existing = new Map(
    (await queryAll(refOf('suppliers', staff).pk)).map((s) => [String(s.name), s._id]),
  );
  const out: SupplierRef[] = [];
  const fresh = [];
  for (const s of SUPPLIERS) {
    const known = existing.get(s.name);
    const id = known ?? newId();
    if (!known) {
      fresh.push(
        stamped(
          'suppliers',
          { name: s.name, type: s.type, utilityTypes: [...s.utilityTypes], portal: s.portal },
          { id, createdBy },
        ),
      );
    }
    out.push({
      id,
      name: s.name,
      type: s.type,
      utilityTypes: s.utilityTypes,
      ...(s.invoicePrefix ? { invoicePrefix: s.invoicePrefix } : {}),
      ...(s.regions ? { regions: s.regions } : {}),
    });
  }
  await putAll('suppliers', staff, fresh);
  return out;
}

export async function seedCountries(staff: Caller): Promise<number> {
  if ((await queryAll(refOf('countries', staff).pk)).length > 0) return 0;
  await putAll(
    'countries',
    staff,
    COUNTRIES.map((c) => stamped('countries', { ...c }, { id: newId(), createdBy: staff.sub })),
  );
  return COUNTRIES.length;
}

export async function seedBenchmarks(staff: Caller): Promise<number> {
  if ((await queryAll(refOf('benchmarks', staff).pk)).length > 0) return 0;
  await putAll(
    'benchmarks',
    staff,
    LETI_TARGETS.map((t) =>
      stamped(
        'benchmarks',
        {
          name: `LETI operational energy target – ${t.propertyType}`,
          kind: t.kind,
          propertyType: t.propertyType,
          values: { energyUseIntensityKwhPerM2: t.kwhPerM2Year },
        },
        {
          id: newId(),
          createdBy: staff.sub,
          extra: { source: t.source, ...(t.check ? { check: t.check } : {}) },
        },
      ),
    ),
  );
  return LETI_TARGETS.length;
}
