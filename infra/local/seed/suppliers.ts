import type { UtilityType } from '../../../shared/schemas/common.ts';

export interface SupplierPlan {
  name: string;
  type: 'supplier' | 'distributor';
  utilityTypes: readonly UtilityType[];
  portal?: string;
  /** Prefix of the invoice numbers this supplier issues in the demo data */
  invoicePrefix?: string;
  /** Water retailers serve these regions; others serve everywhere. */
  regions?: readonly string[];
}

export const SUPPLIERS: readonly SupplierPlan[] = [
  {
    name: 'British Gas Business',
    type: 'supplier',
    utilityTypes: ['electricity', 'gas'],
    portal: 'https://www.britishgas.co.uk/business',
    invoicePrefix: 'BGB',
  },
  {
    name: 'EDF Energy',
    type: 'supplier',
    utilityTypes: ['electricity', 'gas'],
    portal: 'https://www.edfenergy.com/business',
    invoicePrefix: 'EDF',
  },
  {
    name: 'E.ON Next',
    type: 'supplier',
    utilityTypes: ['electricity', 'gas'],
    portal: 'https://www.eonnext.com/business',
    invoicePrefix: 'EON',
  },
  {
    name: 'Octopus Energy for Business',
    type: 'supplier',
    utilityTypes: ['electricity'],
    portal: 'https://octopus.energy/business',
    invoicePrefix: 'OEB',
  },
  {
    name: 'TotalEnergies Gas & Power',
    type: 'supplier',
    utilityTypes: ['gas', 'electricity'],
    portal: 'https://totalenergies.co.uk',
    invoicePrefix: 'TGP',
  },
  {
    name: 'Thames Water',
    type: 'supplier',
    utilityTypes: ['water'],
    invoicePrefix: 'TWB',
    regions: ['Greater London', 'South East', 'East of England'],
  },
  {
    name: 'Severn Trent',
    type: 'supplier',
    utilityTypes: ['water'],
    invoicePrefix: 'STW',
    regions: [
      'West Midlands',
      'East Midlands',
      'Wales',
      'South West',
      'North West',
      'North East',
      'Yorkshire and the Humber',
    ],
  },
  {
    name: 'Business Stream',
    type: 'supplier',
    utilityTypes: ['water'],
    invoicePrefix: 'BSW',
    regions: ['Scotland'],
  },
  { name: 'Veolia', type: 'supplier', utilityTypes: ['waste'], invoicePrefix: 'VEO' },
  { name: 'Biffa', type: 'supplier', utilityTypes: ['waste'], invoicePrefix: 'BIF' },
  { name: 'UK Power Networks', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'National Grid Electricity Distribution', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'Northern Powergrid', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'Electricity North West', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'SP Energy Networks', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'Scottish and Southern Electricity Networks', type: 'distributor', utilityTypes: ['electricity'] },
  { name: 'Cadent Gas', type: 'distributor', utilityTypes: ['gas'] },
  { name: 'SGN', type: 'distributor', utilityTypes: ['gas'] },
  { name: 'Northern Gas Networks', type: 'distributor', utilityTypes: ['gas'] },
  { name: 'Wales & West Utilities', type: 'distributor', utilityTypes: ['gas'] },
];
