import type { CALENDAR_PERIODS } from '../../../shared/schemas/company.ts';

/** What a demo company is made of, written as plain data; the seed turns it into stored items. */
export type AssetKind = 'Office' | 'Retail' | 'Industrial' | 'Warehouse' | 'Residential block';

export interface AddressPlan {
  street: string;
  town: string;
  region: string;
  postCode: string;
}

export interface EntityPlan {
  legalName: string;
  companyNumber: string;
  /** legalName of the parent; absent for the group's ultimate parent */
  parent?: string;
  address: AddressPlan;
}

export interface AssetPlan {
  siteName: string;
  /** legalName of the owning entity */
  entity: string;
  assetType: AssetKind;
  address: AddressPlan;
  /** m² */
  floorArea: number;
  lat: number;
  lng: number;
  /** MPAN distributor id of the area (10 to 23) */
  distributor: string;
  /** Non-domestic asset rating, or SAP score for residential blocks */
  epcScore: number;
  status?: 'active' | 'development';
  gas?: boolean;
  water?: boolean;
  /** Waste streams collected, by category */
  waste?: readonly string[];
  /** Private sub-meters below the main electricity meter */
  subMeters?: readonly string[];
  /** Accounts (by label: 'Gas', 'Water', a waste category) whose supply ended this many months ago */
  closed?: Readonly<Record<string, number>>;
}

export interface CompanyPlan {
  name: string;
  /** Fixes the random draws of this company's data. */
  seed: string;
  settings: {
    isDemo: boolean;
    calendarPeriod: (typeof CALENDAR_PERIODS)[number];
    invoiceCaptureEmail?: string;
    documentCategories: string[];
    invoiceCategories: string[];
    miscInvoiceCategories: string[];
    messageCategories: string[];
  };
  entities: readonly EntityPlan[];
  assets: readonly AssetPlan[];
  assetGroups: readonly { name: string; description: string; assets: readonly string[] }[];
  /** A supplier that bills some of the latest bills above the contract's unit rate (the demo's failed bills). */
  overchargedBills?: { supplierName: string; count: number };
}
