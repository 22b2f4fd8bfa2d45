import useSWR from 'swr';
import type { UtilityType } from '../../../shared/schemas/common.ts';

export type SupplierType = 'supplier' | 'distributor';

export interface Supplier {
  _id: string;
  name: string;
  type: SupplierType;
  utilityTypes: UtilityType[];
  portal?: string;
  scraperEnabled: boolean;
  logoUrl?: string;
  createdAt?: string;
  updatedAt?: string;
}

interface ListAnswer<T> {
  data: T[];
  total: number;
}

/** One SWR key per call of the supplier pages; changes revalidate keys that start with `/suppliers`. */
export const supplierKeys = {
  list: (type?: SupplierType) => `/suppliers?limit=1000${type ? `&type=${type}` : ''}`,
  supplier: (id: string) => `/suppliers/${id}`,
} as const;

export const isSupplierKey = (key: unknown) => typeof key === 'string' && key.startsWith('/suppliers');

export const useSuppliers = (type?: SupplierType) => useSWR<ListAnswer<Supplier>>(supplierKeys.list(type));
export const useSupplier = (id: string | undefined) =>
  useSWR<Supplier>(id ? supplierKeys.supplier(id) : null);

export const SUPPLIER_TYPE_LABELS: Record<SupplierType, string> = {
  supplier: 'Supplier',
  distributor: 'Distributor',
};
