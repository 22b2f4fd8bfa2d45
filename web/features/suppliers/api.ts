import useSWR from 'swr';
import { MESSAGES } from '../../../shared/messages.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { LogoUploadStart, Supplier, SupplierType } from '../../../shared/schemas/responses/suppliers.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type { Supplier, SupplierType } from '../../../shared/schemas/responses/suppliers.ts';

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

const SUPPLIER_READS = [(key: string) => isSupplierKey(key)];

/** POST /suppliers */
export const useCreateSupplier = () =>
  useEndpoint(
    (api, body: Record<string, unknown>) => api.post<Supplier>('/suppliers', body),
    () => SUPPLIER_READS,
  );

/** PATCH /suppliers/{id} */
export const useUpdateSupplier = () =>
  useEndpoint(
    (api, id: string, body: Record<string, unknown>) => api.patch<Supplier>(`/suppliers/${id}`, body),
    () => SUPPLIER_READS,
  );

/** PUT /suppliers/{id}/logo for an upload address, the PUT, then PUT /suppliers/{id}/logo with its key. */
export const useUploadSupplierLogo = () =>
  useEndpoint(
    async (api, id: string, file: File) => {
      const start = await api.put<LogoUploadStart>(`/suppliers/${id}/logo`, { size: file.size });
      const put = await fetch(start.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': start.contentType },
        body: file,
      });
      if (!put.ok) throw new Error(MESSAGES.submitProblem);
      await api.put(`/suppliers/${id}/logo`, { key: start.key });
    },
    () => SUPPLIER_READS,
  );

/** DELETE /suppliers/{id}/logo */
export const useRemoveSupplierLogo = () =>
  useEndpoint(
    (api, id: string) => api.del(`/suppliers/${id}/logo`),
    () => SUPPLIER_READS,
  );
