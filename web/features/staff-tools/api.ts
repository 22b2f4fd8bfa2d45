import useSWR from 'swr';
import type {
  GasMeterChoices,
  GasPrediction,
  GlobalStats,
  GridfetchLoaView,
  GridfetchUsageReport,
} from '../../../shared/schemas/util-staff.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import { putWithProgress, type UploadTarget } from '../../lib/upload.ts';

/** A site of any company, as the staff map lists it. */
export interface GlobalAsset {
  _id: string;
  siteName?: string;
  assetType?: string;
  status?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
  geocoordinates?: { lat: number; lng: number };
  company: { _id: string; name?: string };
}

/** The SWR key of a company's gas meters; '' stands for the caller's own company. */
export const gasMeterChoicesKey = (companyId: string) =>
  companyId
    ? `/util/gas-prediction-accounts?companyId=${encodeURIComponent(companyId)}`
    : '/util/gas-prediction-accounts';

const USAGE = '/util/gridfetch-usage';

/** GET /util/gas-prediction-accounts */
export const useGasMeterChoices = (companyId: string) =>
  useSWR<GasMeterChoices>(gasMeterChoicesKey(companyId));

/** POST /util/gas-prediction-data */
export const useGasPrediction = () =>
  useEndpoint((api, body: Record<string, unknown>) =>
    api.post<GasPrediction>('/util/gas-prediction-data', body),
  );

/** GET /util/global-assets */
export const useGlobalAssets = () => useSWR<{ data: GlobalAsset[]; total: number }>('/util/global-assets');

/** GET /util/global-stats */
export const useGlobalStats = () => useSWR<GlobalStats>('/util/global-stats');

/** GET /util/gridfetch-usage, for the months asked (the server's own range when none are). */
export const useGridfetchUsage = (query = '') =>
  useSWR<GridfetchUsageReport>(`${USAGE}${query ? `?${query}` : ''}`, { keepPreviousData: true });

/** POST /util/gridfetch-loa for a signed upload, the PUT, then POST /util/gridfetch-loa with the record. */
export const useUploadLoa = () =>
  useEndpoint(
    async (
      api,
      file: File,
      record: { companyId: string; mpans: string[]; validFrom?: string; validUntil?: string },
      onProgress: (percent: number) => void,
    ) => {
      const base = { companyId: record.companyId, fileName: file.name };
      const ticket = await api.post<UploadTarget & { key: string }>('/util/gridfetch-loa', base);
      await putWithProgress(ticket, file, onProgress);
      return api.post<GridfetchLoaView>('/util/gridfetch-loa', { ...record, ...base, key: ticket.key });
    },
    () => [(key) => key.startsWith(USAGE)],
  );
