import { queryAll } from '../../../functions/core/data/item-repository.ts';
import { putNewItems } from '../../../functions/core/imports/import-batch-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { declaredResource } from '../../../functions/core/resources/resource-refs.ts';
import { collectionOf } from '../../../functions/core/resources/resource-service.ts';
import type { Caller } from '../../../shared/access/caller.ts';
import { stamped } from './plan-items.ts';

/**
 * The marketplace's demo catalogue. Every project is an example (isExample): the names, registries' ids
 * and prices are made up to show the catalogue, and the pages label them so.
 */
const EXAMPLE_PROJECTS = [
  {
    name: 'Example: Cairngorms native woodland',
    projectType: 'afforestation',
    registry: 'UK Woodland Carbon Code',
    registryId: 'EX-WCC-0101',
    vintage: 2024,
    country: 'United Kingdom',
    location: 'Aberdeenshire, Scotland',
    description: 'Native pine and birch planted on former grazing land; removals verified every five years.',
    pricePerTonne: 28,
    availableTonnes: 4200,
  },
  {
    name: 'Example: Flow Country peat rewetting',
    projectType: 'peatland',
    registry: 'Peatland Code',
    registryId: 'EX-PC-0207',
    vintage: 2023,
    country: 'United Kingdom',
    location: 'Caithness, Scotland',
    description: 'Drains blocked on degraded blanket bog so the peat stops giving off carbon.',
    pricePerTonne: 24,
    availableTonnes: 9800,
  },
  {
    name: 'Example: Nordic biochar from forestry residues',
    projectType: 'biochar',
    registry: 'Puro.earth',
    registryId: 'EX-PURO-3312',
    vintage: 2025,
    country: 'Finland',
    location: 'Kuopio',
    description: 'Sawmill residues pyrolysed into biochar spread on farmland, storing carbon for centuries.',
    pricePerTonne: 145,
    availableTonnes: 650,
  },
  {
    name: 'Example: Iceland direct air capture',
    projectType: 'direct-air-capture',
    registry: 'Puro.earth',
    registryId: 'EX-PURO-4410',
    vintage: 2025,
    country: 'Iceland',
    location: 'Hellisheidi',
    description: 'Carbon dioxide drawn from the air and mineralised in basalt underground.',
    pricePerTonne: 620,
    availableTonnes: 120,
  },
  {
    name: 'Example: Sundarbans mangrove restoration',
    projectType: 'blue-carbon',
    registry: 'Verra',
    registryId: 'EX-VCS-2291',
    vintage: 2022,
    country: 'Bangladesh',
    location: 'Khulna Division',
    description: 'Mangroves replanted along eroded coastline, with community nurseries.',
    pricePerTonne: 32,
    availableTonnes: 15000,
  },
  {
    name: 'Example: Rwanda efficient cookstoves',
    projectType: 'cookstoves',
    registry: 'Gold Standard',
    registryId: 'EX-GS-11873',
    vintage: 2023,
    country: 'Rwanda',
    location: 'Kigali and Eastern Province',
    description: 'Efficient stoves that halve the wood burnt for cooking, avoiding emissions and smoke.',
    pricePerTonne: 12,
    availableTonnes: 40000,
  },
  {
    name: 'Example: Tamil Nadu wind farm',
    projectType: 'renewable-energy',
    registry: 'Verra',
    registryId: 'EX-VCS-1765',
    vintage: 2021,
    country: 'India',
    location: 'Tirunelveli',
    description: 'Wind power displacing coal-fired generation on the southern grid.',
    pricePerTonne: 6,
    availableTonnes: 75000,
  },
  {
    name: 'Example: Kasigau corridor forest protection',
    projectType: 'redd',
    registry: 'Verra',
    registryId: 'EX-VCS-0612',
    vintage: 2022,
    country: 'Kenya',
    location: 'Taita-Taveta County',
    description: 'Dryland forest protected from clearance, with ranger and school programmes.',
    pricePerTonne: 14,
    availableTonnes: 22000,
  },
] as const;

/** The example catalogue, once: a catalogue that has any project is left alone. */
export async function seedCarbonProjects(staff: Caller): Promise<number> {
  const ref = collectionOf(declaredResource('marketplace/carbon'), staff);
  if ((await queryAll(ref.pk)).length > 0) return 0;
  const items = EXAMPLE_PROJECTS.map((p) => {
    const fields = {
      ...p,
      isExample: true,
      documents: [{ name: 'Example project design document', url: 'https://example.org/carbon/pdd.pdf' }],
    };
    return stamped('marketplace/carbon', fields, { id: newId(), createdBy: staff.sub });
  });
  await putNewItems(items.map((item) => ({ ref, item })));
  return items.length;
}
