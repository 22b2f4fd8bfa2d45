import { storedFloorArea } from '../../shared/domain/units.ts';
import { allCompanyIds } from '../company/index.ts';
import { listItems } from '../core/data/item-repository.ts';
import { childRef } from '../core/resources/resource-refs.ts';
import { changeAsset } from './asset-records.ts';
import { siteFloorAreasOf } from './asset-repository.ts';

/**
 * Floor areas are stored in m², with `floorAreaUnit` only the unit they are entered and shown in. Before,
 * the site wizard, the manage page and site imports stored m² while `POST /assets` stored the number in
 * the unit it named, so a site entered in ft² by the wizard was divided twice by the readers that
 * converted again. Sites in m² need nothing. A site entered in ft² and not yet marked
 * `floorAreaStoredAs: 'm2'` is converted when it came from `POST /assets` (no import batch, and no
 * "Site added" status that the wizard writes), then marked, so the migration never converts a site twice
 * and may run at every start. Floor-area history periods were always held in m² (`floorAreaM2`).
 */

export interface FloorAreaMigration {
  companies: number;
  checked: number;
  converted: number;
  marked: number;
}

const WIZARD_FIRST_STATUS = 'Site added';

async function madeByWizard(companyId: string, assetId: string): Promise<boolean> {
  const { data } = await listItems(childRef(companyId, 'assets', assetId, 'status-history'), {
    filters: {},
    limit: 100,
    skip: 0,
  });
  return data.some((s) => s.comment === WIZARD_FIRST_STATUS);
}

/** The sites of one company entered in ft² and not yet marked: converted where needed, then marked. */
export async function migrateCompanyFloorAreas(
  companyId: string,
): Promise<Omit<FloorAreaMigration, 'companies'>> {
  const sites = await siteFloorAreasOf(companyId);
  const pending = sites.filter((s) => s.floorAreaUnit === 'ft2' && s.floorAreaStoredAs !== 'm2');
  let converted = 0;
  for (const site of pending) {
    const inFeet =
      typeof site.floorArea === 'number' &&
      site.batchId === undefined &&
      !(await madeByWizard(companyId, site._id));
    await changeAsset(
      companyId,
      site._id,
      (a) => {
        // Marked meanwhile by a write of the new code: its area is already in m².
        if (a.floorAreaStoredAs === 'm2') return undefined;
        const area =
          inFeet && typeof a.floorArea === 'number' ? storedFloorArea(a.floorArea, 'ft2') : a.floorArea;
        return { ...a, ...(area === undefined ? {} : { floorArea: area }), floorAreaStoredAs: 'm2' };
      },
      { keepUpdatedAt: true },
    );
    if (inFeet) converted++;
  }
  return { checked: sites.length, converted, marked: pending.length };
}

/** Every company's sites; safe to run again (a marked site is never touched). */
export async function migrateFloorAreas(): Promise<FloorAreaMigration> {
  const total: FloorAreaMigration = { companies: 0, checked: 0, converted: 0, marked: 0 };
  for (const companyId of await allCompanyIds()) {
    const done = await migrateCompanyFloorAreas(companyId);
    total.companies++;
    total.checked += done.checked;
    total.converted += done.converted;
    total.marked += done.marked;
  }
  return total;
}
