import type { AddressPlan, CompanyPlan } from './portfolio-types.ts';

const HOLDINGS = 'Northwind Property Holdings Ltd';
const COMMERCIAL = 'Northwind Commercial Ltd';
const RESIDENTIAL = 'Northwind Residential Ltd';

const OFFICE: AddressPlan = {
  street: '3 Forbury Square',
  town: 'Reading',
  region: 'South East',
  postCode: 'RG1 3EB',
};

/** A second, ordinary customer: its data must never show in Demo Estates. */
export const NORTHWIND: CompanyPlan = {
  name: 'Northwind Property Co',
  seed: 'northwind',
  settings: {
    isDemo: false,
    calendarPeriod: 'Standard',
    invoiceCaptureEmail: 'invoices+northwind@capture.voltfolio.test',
    documentCategories: ['Energy Performance Certificate', 'Lease', 'Supply contract'],
    invoiceCategories: ['Utilities', 'Service charge'],
    miscInvoiceCategories: [],
    messageCategories: ['Billing query', 'Meter reading'],
  },
  entities: [
    { legalName: HOLDINGS, companyNumber: '07754120', address: OFFICE },
    { legalName: COMMERCIAL, companyNumber: '07754188', parent: HOLDINGS, address: OFFICE },
    { legalName: RESIDENTIAL, companyNumber: '08810342', parent: HOLDINGS, address: OFFICE },
  ],
  assets: [
    {
      siteName: 'Kings Road Offices',
      entity: COMMERCIAL,
      assetType: 'Office',
      address: { street: '45 Kings Road', town: 'Reading', region: 'South East', postCode: 'RG1 3AR' },
      floorArea: 2850,
      lat: 51.456,
      lng: -0.964,
      distributor: '20',
      epcScore: 52,
      gas: true,
      water: true,
    },
    {
      siteName: 'Silbury Court',
      entity: COMMERCIAL,
      assetType: 'Office',
      address: {
        street: '300 Silbury Boulevard',
        town: 'Milton Keynes',
        region: 'South East',
        postCode: 'MK9 2AF',
      },
      floorArea: 3900,
      lat: 52.043,
      lng: -0.759,
      distributor: '11',
      epcScore: 61,
      gas: true,
      waste: ['General waste'],
    },
    {
      siteName: 'Brunswick Court Apartments',
      entity: RESIDENTIAL,
      assetType: 'Residential block',
      address: { street: '14 Brunswick Terrace', town: 'Hove', region: 'South East', postCode: 'BN3 1HL' },
      floorArea: 2600,
      lat: 50.824,
      lng: -0.162,
      distributor: '19',
      epcScore: 71,
      gas: true,
      water: true,
    },
    {
      siteName: 'Harbour Road Trade Park',
      entity: COMMERCIAL,
      assetType: 'Industrial',
      address: {
        street: 'Unit 5, Harbour Road',
        town: 'Southampton',
        region: 'South East',
        postCode: 'SO14 3GG',
      },
      floorArea: 5200,
      lat: 50.898,
      lng: -1.397,
      distributor: '20',
      epcScore: 83,
      water: true,
    },
    {
      siteName: '61 Coney Street',
      entity: COMMERCIAL,
      assetType: 'Retail',
      address: {
        street: '61 Coney Street',
        town: 'York',
        region: 'Yorkshire and the Humber',
        postCode: 'YO1 9QL',
      },
      floorArea: 540,
      lat: 53.959,
      lng: -1.084,
      distributor: '23',
      epcScore: 96,
    },
  ],
  assetGroups: [
    {
      name: 'Offices',
      description: 'Commercial office buildings',
      assets: ['Kings Road Offices', 'Silbury Court'],
    },
  ],
};
