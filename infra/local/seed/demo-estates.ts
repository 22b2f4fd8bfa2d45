import {
  DEMO_ESTATES_ASSETS as ASSETS,
  DEMO_GROUP as GROUP,
  DEMO_LOGISTICS as LOGISTICS,
  DEMO_OFFICES as OFFICES,
  DEMO_RETAIL as RETAIL,
} from './demo-estates-assets.ts';
import type { AddressPlan, CompanyPlan } from './portfolio-types.ts';

const REGISTERED_OFFICE: AddressPlan = {
  street: '40 Gracechurch Street',
  town: 'London',
  region: 'Greater London',
  postCode: 'EC3V 0BT',
};

export const DEMO_ESTATES: CompanyPlan = {
  name: 'Demo Estates Ltd',
  seed: 'demo-estates',
  // What its notification "3 invoices from EDF Energy failed validation" is about.
  overchargedBills: { supplierName: 'EDF Energy', count: 3 },
  settings: {
    isDemo: true,
    calendarPeriod: 'Standard',
    invoiceCaptureEmail: 'invoices+demo@capture.voltfolio.test',
    documentCategories: [
      'Energy Performance Certificate',
      'Lease',
      'Floor plan',
      'Energy audit',
      'Supply contract',
      'Health and safety',
    ],
    invoiceCategories: ['Utilities', 'Service charge', 'Business rates', 'Maintenance'],
    miscInvoiceCategories: ['Meter installation', 'Reconnection fee', 'Late payment charge'],
    messageCategories: ['Billing query', 'Meter reading', 'Supplier change', 'Site access'],
  },
  entities: [
    { legalName: GROUP, companyNumber: '04871236', address: REGISTERED_OFFICE },
    { legalName: OFFICES, companyNumber: '09312457', parent: GROUP, address: REGISTERED_OFFICE },
    { legalName: RETAIL, companyNumber: '09312461', parent: GROUP, address: REGISTERED_OFFICE },
    { legalName: LOGISTICS, companyNumber: '10458832', parent: GROUP, address: REGISTERED_OFFICE },
  ],
  assets: ASSETS,
  assetGroups: [
    {
      name: 'London portfolio',
      description: 'Central London offices and flagship retail',
      assets: ['Aldgate House', '210 Oxford Street'],
    },
    {
      name: 'High street retail',
      description: 'Single-let high street units',
      assets: ['128 High Street Guildford', '54 Princes Street', '17 Bold Street', '210 Oxford Street'],
    },
    {
      name: 'Logistics estate',
      description: 'Distribution and industrial units',
      assets: ASSETS.filter((a) => a.entity === LOGISTICS).map((a) => a.siteName),
    },
  ],
};
