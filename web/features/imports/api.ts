import useSWR from 'swr';
import type { ImportMapping, ImportType } from '../../../shared/imports/import-mapping.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type {
  ImportInfo,
  ImportState,
  PreviewAnswer,
  UploadTicket,
} from '../../../shared/schemas/responses/imports.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export type {
  ImportInfo,
  ImportState,
  ImportStatus,
  Outcome,
  OutcomeTotals,
  PreviewAnswer,
  RowOutcome,
  UploadTicket,
} from '../../../shared/schemas/responses/imports.ts';

import type { FailedRows, ImportItemsPage } from '../../../shared/schemas/responses/imports.ts';

export const importKeys = {
  list: '/imports?$sort=-createdAt&limit=100',
  one: (id: string) => `/imports/${id}`,
  info: (id: string) => `/imports/${id}/info`,
  items: (id: string, stage: string, page: number) => `/imports/${id}/items?stage=${stage}&page=${page}`,
} as const;

const active = (s: ImportState | undefined) =>
  s?.status === 'processing' || (s !== undefined && !s.fileRead && s.status === 'pending');

export const useImports = () => useSWR<ListAnswer<ImportState>>(importKeys.list);

/** The import, read again while it runs (live messages revalidate it sooner). */
export const useImport = (id: string | undefined) =>
  useSWR<ImportState>(id ? importKeys.one(id) : null, {
    refreshInterval: (data) => (active(data) ? 1500 : 0),
  });

/** What the worker read of the file; read again until it has read it. */
export const useImportInfo = (id: string | undefined) =>
  useSWR<ImportInfo>(id ? importKeys.info(id) : null, {
    refreshInterval: (data) => (data && !data.fileRead && data.status === 'pending' ? 1000 : 0),
  });

export const useImportItems = (id: string | undefined, stage: 'preview' | 'import' | 'rollback', page = 0) =>
  useSWR<ImportItemsPage>(id ? importKeys.items(id, stage, page) : null);

export const useRequestUpload = () =>
  useEndpoint((api, type: ImportType, file: File) =>
    api.get<UploadTicket>('/imports/upload-url', { query: { type, fileName: file.name, size: file.size } }),
  );

export const useSaveMapping = () =>
  useEndpoint(
    (api, id: string, mapping: ImportMapping, templateName?: string) =>
      api.post<ImportState>(`/imports/${id}/mapping`, { mapping, ...(templateName ? { templateName } : {}) }),
    (_r, [id]) => [importKeys.one(id), importKeys.info(id)],
  );

export const useRunPreview = () =>
  useEndpoint(
    (api, id: string) => api.post<PreviewAnswer>(`/imports/${id}/preview`, {}),
    (_r, [id]) => [importKeys.one(id), keysUnder(`/imports/${id}/items`)],
  );

export const useStartImport = () =>
  useEndpoint(
    (api, id: string) => api.post<ImportState>(`/imports/${id}/import`, {}),
    (r, [id]) => [{ key: importKeys.one(id), data: r }, keysUnder('/imports?')],
  );

export const useStartRollback = () =>
  useEndpoint(
    (api, id: string) => api.post<ImportState>(`/imports/${id}/rollback`, {}),
    (r, [id]) => [{ key: importKeys.one(id), data: r }, keysUnder('/imports?')],
  );

export const useFailedRows = () =>
  useEndpoint((api, id: string) => api.get<FailedRows>(`/imports/${id}/failed-rows`));
