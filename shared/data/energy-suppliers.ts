import type { UtilityType } from '../schemas/common.ts';
import type { VersionedList } from './lookup.ts';

export interface EnergySupplierOption {
  value: string;
  name: string;
  utilityTypes: readonly UtilityType[];
}

const supplier = (name: string, utilityTypes: readonly UtilityType[]): EnergySupplierOption => ({
  value: name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, ''),
  name,
  utilityTypes,
});

/** Licensed suppliers of business energy and water in Great Britain that a user can name on an account. */
export const ENERGY_SUPPLIERS: VersionedList<EnergySupplierOption> = {
  version: '2025.1',
  data: [
    supplier('British Gas Business', ['electricity', 'gas']),
    supplier('Business Stream', ['water']),
    supplier('Corona Energy', ['gas', 'electricity']),
    supplier('Crown Gas & Power', ['gas', 'electricity']),
    supplier('Drax Energy Solutions', ['electricity', 'gas']),
    supplier('E.ON Next', ['electricity', 'gas']),
    supplier('EDF Energy', ['electricity', 'gas']),
    supplier('Engie', ['electricity', 'gas']),
    supplier('Everflow', ['water']),
    supplier('Gazprom Energy', ['gas', 'electricity']),
    supplier('Npower Business Solutions', ['electricity', 'gas']),
    supplier('Octopus Energy for Business', ['electricity', 'gas']),
    supplier('Pozitive Energy', ['electricity', 'gas']),
    supplier('SSE Energy Solutions', ['electricity', 'gas']),
    supplier('Scottish Power', ['electricity', 'gas']),
    supplier('Severn Trent', ['water']),
    supplier('Smartest Energy', ['electricity']),
    supplier('Thames Water', ['water']),
    supplier('TotalEnergies Gas & Power', ['gas', 'electricity']),
    supplier('Valda Energy', ['electricity', 'gas']),
    supplier('Wave', ['water']),
    supplier('Yorkshire Gas and Power', ['gas', 'electricity']),
    supplier('Biffa', ['waste']),
    supplier('Veolia', ['waste']),
  ],
};
