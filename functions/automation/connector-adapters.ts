import { BILL_TABLE_PORTAL, type BillPortalAdapter, DOCUMENT_CARDS_PORTAL } from './portal-adapters.ts';

/** A smart-meter data API: its meters are the company's accounts with this supplier. */
export interface MeterDataAdapter {
  kind: 'meter-data';
  label: string;
}

export const OCTOPUS_CONSUMPTION_API: MeterDataAdapter = {
  kind: 'meter-data',
  label: 'Octopus Energy consumption API',
};

export type ConnectorAdapter = BillPortalAdapter | MeterDataAdapter;

/** One adapter per portal, by the supplier's name as a slug. */
const ADAPTERS: Readonly<Record<string, ConnectorAdapter>> = {
  'british-gas-business': BILL_TABLE_PORTAL,
  'edf-energy': DOCUMENT_CARDS_PORTAL,
  'octopus-energy-for-business': OCTOPUS_CONSUMPTION_API,
};

export const supplierSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const adapterFor = (supplierName: string): ConnectorAdapter | undefined =>
  ADAPTERS[supplierSlug(supplierName)];

/**
 * Where a supplier's connector connects: its portal address, or on this machine (and in tests) the local
 * server standing in for it, named by SUPPLIER_PORTAL_BASE_URL / METER_DATA_API_URL.
 */
export function connectorBaseUrl(
  adapter: ConnectorAdapter,
  supplier: { name: string; portal?: string },
): string | undefined {
  if (adapter.kind === 'meter-data') return process.env.METER_DATA_API_URL || 'https://api.octopus.energy';
  const local = process.env.SUPPLIER_PORTAL_BASE_URL;
  if (local) return `${local}/${supplierSlug(supplier.name)}`;
  return supplier.portal?.replace(/\/+$/, '');
}
