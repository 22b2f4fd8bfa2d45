import { listPathwaySets, writePathwaySet } from '../../../functions/benchmarks/index.ts';
import { queryAll, type StoredItem } from '../../../functions/core/data/item-repository.ts';
import { putNewItems } from '../../../functions/core/imports/import-batch-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { declaredResource } from '../../../functions/core/resources/resource-refs.ts';
import { collectionOf } from '../../../functions/core/resources/resource-service.ts';
import type { Caller } from '../../../shared/access/caller.ts';
import { parsePathwayCsv } from '../../../shared/benchmarks/pathways.ts';
import { LETI_TARGETS } from '../../../shared/domain/benchmarks.ts';
import {
  ILLUSTRATIVE_ENERGY_BENCHMARKS,
  ILLUSTRATIVE_PATHWAY_SET,
  illustrativePathwayCsv,
  type SeedBenchmark,
} from './benchmark-sets.ts';
import { COUNTRIES } from './countries.ts';
import type { SupplierRef } from './plan-accounts.ts';
import { stamped } from './plan-items.ts';
import { SUPPLIERS } from './suppliers.ts';

/**
 * Not through the generic create: the staff who add reference data through the API would leave some
 * 270 entries in a customer company's activity log. The items are checked by the resource's schema and written where the API keeps them.
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

/**
 * LETI's targets (not yet confirmed against the guide, so shown as illustrative), illustrative REEB and ETN
 * sets, and the illustrative CRREM pathway set; each kind, and the pathway set, only when none is there.
 */
export async function seedBenchmarks(staff: Caller): Promise<number> {
  const present = new Set((await queryAll(refOf('benchmarks', staff).pk)).map((b) => String(b.kind)));
  const leti: SeedBenchmark[] = LETI_TARGETS.map((t) => ({
    name: `LETI operational energy target – ${t.propertyType}`,
    kind: t.kind,
    propertyType: t.propertyType,
    values: { energyUseIntensityKwhPerM2: t.kwhPerM2Year },
    source: t.source,
    period: 'Climate Emergency Design Guide, 2020',
    illustrative: t.check !== undefined,
    ...(t.check ? { check: t.check } : {}),
  }));
  const fresh = [...leti, ...ILLUSTRATIVE_ENERGY_BENCHMARKS].filter((b) => !present.has(b.kind));
  await putAll(
    'benchmarks',
    staff,
    fresh.map((b) => stamped('benchmarks', { ...b }, { id: newId(), createdBy: staff.sub })),
  );
  if ((await listPathwaySets()).length === 0) {
    const parsed = parsePathwayCsv(illustrativePathwayCsv());
    if (parsed.errors.length > 0)
      throw new Error(`The illustrative pathways are invalid: ${parsed.errors[0]?.message}`);
    await writePathwaySet(
      {
        _id: newId(),
        ...ILLUSTRATIVE_PATHWAY_SET,
        countries: [...new Set(parsed.pathways.map((p) => p.country))],
        propertyTypes: parsed.pathways.map((p) => p.propertyType),
        pathways: parsed.pathways.length,
        uploadedAt: new Date().toISOString(),
        uploadedBy: staff.sub,
      },
      parsed.pathways,
      parsed.gridFactors,
    );
  }
  return fresh.length;
}
