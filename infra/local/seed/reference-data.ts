import { newId } from '../../../functions/lib/ids.ts';
import { putItem, queryAll } from '../../../functions/repositories/item-repository.ts';
import { LETI_TARGETS } from '../../../shared/domain/benchmarks.ts';
import { COUNTRIES } from './countries.ts';
import type { SupplierRef } from './plan-accounts.ts';
import { SUPPLIERS } from './suppliers.ts';
import { collection, putItems, stamped } from './writer.ts';

/**
 * Reference data shared by every company. Seeding it twice adds nothing: suppliers are matched by name,
 * and countries and benchmarks are left alone once present.
 */
export async function seedSuppliers(createdBy: string): Promise<SupplierRef[]> {
  const ref = collection('suppliers');
  const existing = new Map((await queryAll(ref.pk)).map((s) => [String(s.name), s._id]));
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
  await putItems(ref, fresh);
  return out;
}

export async function seedCountries(createdBy: string): Promise<number> {
  const ref = collection('countries');
  if ((await queryAll(ref.pk)).length > 0) return 0;
  await putItems(
    ref,
    COUNTRIES.map((c) => stamped('countries', { ...c }, { id: newId(), createdBy })),
  );
  return COUNTRIES.length;
}

export async function seedBenchmarks(createdBy: string): Promise<number> {
  const ref = collection('benchmarks');
  if ((await queryAll(ref.pk)).length > 0) return 0;
  for (const t of LETI_TARGETS) {
    await putItem(
      ref,
      stamped(
        'benchmarks',
        {
          name: `LETI operational energy target – ${t.propertyType}`,
          kind: t.kind,
          propertyType: t.propertyType,
          values: { energyUseIntensityKwhPerM2: t.kwhPerM2Year },
        },
        { id: newId(), createdBy, extra: { source: t.source, ...(t.check ? { check: t.check } : {}) } },
      ),
    );
  }
  return LETI_TARGETS.length;
}
