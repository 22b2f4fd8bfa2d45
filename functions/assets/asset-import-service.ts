import { caseless } from '../../shared/imports/import-values.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  assetWizardSchema,
  normaliseWizardValues,
} from '../../shared/schemas/asset-wizard.ts';
import { idSchema } from '../../shared/schemas/common.ts';
import {
  ASSET_IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  type ImportRow,
} from '../../shared/schemas/register-imports.ts';
import { findResource } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import type { PlannedItem, RollbackRules, RowPlanner } from '../core/imports/register-import-service.ts';
import { csvUpload, importRollback, RowProblems } from '../core/imports/register-import-service.ts';
import { FORBIDDEN_MESSAGE } from '../core/lib/errors.ts';
import { createLogger } from '../core/lib/logger.ts';
import type { Operations } from '../core/middleware/api-context.ts';
import { type EntityHierarchy, loadHierarchy } from '../entities/index.ts';
import { assetFieldsOf, assetIdsInUse } from './asset-repository.ts';
import { placeImportedSites } from './external-data-service.ts';

const log = createLogger({ component: 'site-import' });

/**
 * POST /assets/import: a CSV of sites, each checked by the asset wizard's own rules (a type of site, a
 * full address with a valid UK postcode, a floor area above 0) and placed under an entity the company
 * has, named by id or by legal name. Site names are unique in the company, as the wizard keeps them.
 */

/** A spreadsheet's spelling of a listed value ("office", "RESIDENTIAL BLOCK") as the list spells it. */
const listed = <T extends string>(list: readonly T[], value: string | undefined): string | undefined =>
  value === undefined ? undefined : (list.find((v) => caseless(v) === caseless(value)) ?? value);

const AREA_UNITS: Readonly<Record<string, 'm2' | 'ft2'>> = {
  m2: 'm2',
  'm²': 'm2',
  sqm: 'm2',
  'sq m': 'm2',
  ft2: 'ft2',
  'ft²': 'ft2',
  sqft: 'ft2',
  'sq ft': 'ft2',
};

/** The row as the wizard would send it. */
function wizardInput(v: Record<string, string>, entityId: string | undefined) {
  return {
    siteName: v.siteName,
    entityId,
    assetType: listed(ASSET_TYPES, v.assetType),
    ...(v.status ? { status: listed(ASSET_STATUSES, v.status) } : {}),
    address: {
      streetAddress: v.streetAddress,
      locality: v.locality,
      region: v.region,
      postCode: v.postCode,
      country: v.country,
    },
    floorArea: v.floorArea,
    ...(v.floorAreaUnit ? { floorAreaUnit: AREA_UNITS[caseless(v.floorAreaUnit)] ?? v.floorAreaUnit } : {}),
  };
}

/** The entity a row names: by id, or by a legal name that only one of the company's entities has. */
function entityOf(
  h: EntityHierarchy,
  byName: ReadonlyMap<string, string[]>,
  r: ImportRow,
  problems: RowProblems,
): string | undefined {
  const { entityId, entity } = r.values;
  if (entityId) {
    const id = idSchema.safeParse(entityId);
    if (!id.success || !h.byId.has(id.data)) {
      problems.add(r.row, 'entityId', ASSET_MESSAGES.unknownEntity);
      return undefined;
    }
    if (entity && caseless(h.byId.get(id.data)?.legalName) !== caseless(entity))
      problems.add(r.row, 'entity', 'Does not match the entity that entityId names');
    return id.data;
  }
  if (!entity) {
    problems.add(r.row, 'entity', 'This field is required');
    return undefined;
  }
  const matches = byName.get(caseless(entity)) ?? [];
  if (matches.length === 1) return matches[0];
  problems.add(
    r.row,
    'entity',
    matches.length === 0
      ? `${ASSET_MESSAGES.unknownEntity}: no entity is called "${entity}"`
      : `Several entities are called "${entity}": give its id in entityId`,
  );
  return undefined;
}

/** Items an import of sites would create, one per good row, and the problems of the others by row. */
export const planAssetRows: RowPlanner = async (caller, rows, batch, replacing) => {
  const companyId = caller.companyId;
  const [h, existing] = await Promise.all([loadHierarchy(companyId), assetFieldsOf(companyId, ['siteName'])]);
  const problems = new RowProblems();
  // A site a row updates keeps its own name.
  const names = new Set(existing.filter((a) => !replacing?.has(a._id)).map((a) => caseless(a.siteName)));
  const entitiesByName = new Map<string, string[]>();
  for (const e of h.byId.values())
    entitiesByName.set(caseless(e.legalName), [...(entitiesByName.get(caseless(e.legalName)) ?? []), e._id]);
  const resource = findResource('assets');
  const resolver = new LineageResolver(companyId, caller);

  const items: PlannedItem[] = [];
  for (const r of rows) {
    const entityId = entityOf(h, entitiesByName, r, problems);
    // An entity already reported is not reported again by the schema: a stand-in id takes its place.
    const parsed = assetWizardSchema.safeParse(wizardInput(r.values, entityId ?? '000000000000000000000000'));
    if (!parsed.success) problems.addZod(r.row, parsed.error);
    const name = caseless(r.values.siteName);
    if (name && !problems.has(r.row, 'siteName')) {
      if (names.has(name)) problems.add(r.row, 'siteName', ASSET_MESSAGES.duplicateSiteName);
      names.add(name);
    }
    if (!parsed.success || !entityId || problems.has(r.row)) continue;
    const values = normaliseWizardValues(parsed.data);
    const item = batch.stamp({ ...values, images: [] });
    // A site the caller could not create by hand is refused here too, as the create call would.
    if (resource && !(await mayAccessItem(resource, caller, item, 'write', resolver))) {
      problems.add(r.row, 'entityId', FORBIDDEN_MESSAGE);
      continue;
    }
    items.push({ row: r.row, name: values.siteName, item });
  }
  // Imported sites are placed from their postcodes as the wizard's are, within a time limit.
  const written = async (sites: readonly StoredItem[]) => {
    const { placed, left } = await placeImportedSites(companyId, sites, (message, fields) =>
      log.warn(message, fields),
    );
    if (left > 0) log.info('imported sites left unplaced', { placed, left });
  };
  return { problems, items, written };
};

export const ASSET_ROLLBACK: RollbackRules = {
  nameOf: (a) => String(a.siteName ?? a._id),
  /** A site that has meters or projects since the import stays: removing it would orphan them. */
  keepers: async (candidates, companyId) => {
    const kept = new Map<string, string>();
    const used = await assetIdsInUse(companyId);
    for (const c of candidates) if (used.has(c._id)) kept.set(c._id, IMPORT_MESSAGES.assetInUse);
    return kept;
  },
};

export const ASSET_IMPORT_OPERATIONS: Operations = {
  'assets.import': csvUpload(ASSET_IMPORT_COLUMNS, planAssetRows, 'assets'),
  'assets.importRollback': importRollback('assets', ASSET_ROLLBACK),
};
