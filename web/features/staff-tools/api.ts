import useSWR from 'swr';
import type {
  ActivityRow,
  FoundSite,
  GlobalAsset,
  LiveCompany,
  LoaUploadTicket,
  MarketplaceInterest,
  SiteView,
  StaffEmail,
} from '../../../shared/schemas/responses/staff-tools.ts';
import type {
  AdminOverview,
  ProductSettings,
  StoredProductSettings,
} from '../../../shared/schemas/staff-admin.ts';
import type {
  GasMeterChoices,
  GasPrediction,
  GlobalStats,
  GridfetchLoaView,
  GridfetchUsageReport,
} from '../../../shared/schemas/util-staff.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import { putWithProgress } from '../../lib/upload.ts';

export type {
  ActivityRow,
  FoundSite,
  GlobalAsset,
  LiveCompany,
  MarketplaceInterest,
  SiteView,
  StaffEmail,
} from '../../../shared/schemas/responses/staff-tools.ts';

import type { DataList, ListPage } from '../../../shared/schemas/responses/common.ts';
import type { CompanyName } from '../../../shared/schemas/responses/company.ts';
import type { FileLink } from '../../../shared/schemas/responses/invoices.ts';
import type { BroadcastSent } from '../../../shared/schemas/responses/staff-tools.ts';

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
export const useGlobalAssets = () => useSWR<ListPage<GlobalAsset>>('/util/global-assets');

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
      const ticket = await api.post<LoaUploadTicket>('/util/gridfetch-loa', base);
      await putWithProgress(ticket, file, onProgress);
      return api.post<GridfetchLoaView>('/util/gridfetch-loa', { ...record, ...base, key: ticket.key });
    },
    () => [(key) => key.startsWith(USAGE)],
  );

/** GET /util/admin-overview */
export const useAdminOverview = () =>
  useSWR<AdminOverview>('/util/admin-overview', { refreshInterval: 60_000 });

const SETTINGS = '/util/product-settings';

/** GET /util/product-settings */
export const useProductSettings = () => useSWR<StoredProductSettings>(SETTINGS);

/** PUT /util/product-settings */
export const useSaveProductSettings = () =>
  useEndpoint(
    (api, settings: ProductSettings) => api.put<StoredProductSettings>(SETTINGS, settings),
    () => [SETTINGS],
  );

/** GET /util/activity, with the filters as a query string. */
export const useActivity = (query: string) =>
  useSWR<DataList<ActivityRow>>(`/util/activity${query ? `?${query}` : ''}`, { keepPreviousData: true });

/** GET /util/emails */
export const useStaffEmails = (query: string) =>
  useSWR<DataList<StaffEmail>>(`/util/emails${query ? `?${query}` : ''}`, { keepPreviousData: true });

/** GET /util/emails/{id}/attachments/{attachmentId}/download */
export const useEmailAttachment = () =>
  useEndpoint((api, email: StaffEmail, attachmentId: string) =>
    api.get<Required<FileLink>>(
      `/util/emails/${email._id}/attachments/${attachmentId}/download?companyId=${email.companyId ?? 'unmatched'}`,
    ),
  );

/** GET /util/live-connections */
export const useLiveConnections = () =>
  useSWR<ListPage<LiveCompany>>('/util/live-connections', { refreshInterval: 15_000 });

/** POST /util/live-connections/broadcast */
export const useBroadcast = () =>
  useEndpoint((api, body: { companyId: string; userSub?: string; message: string }) =>
    api.post<BroadcastSent>('/util/live-connections/broadcast', body),
  );

/** GET /util/asset-finder?q= (nothing asked below two characters) */
export const useAssetFinder = (text: string) =>
  useSWR<DataList<FoundSite>>(
    text.trim().length >= 2 ? `/util/asset-finder?q=${encodeURIComponent(text.trim())}` : null,
    { keepPreviousData: true },
  );

/** GET /util/asset-finder/{id}?companyId= */
export const useSiteView = (site: { _id: string; companyId: string } | undefined) =>
  useSWR<SiteView>(site ? `/util/asset-finder/${site._id}?companyId=${site.companyId}` : null);

/** GET /companies/global: every company's id and name, for choosing one. */
export const useCompanyChoices = () =>
  useSWR<DataList<Pick<CompanyName, '_id' | 'name'>>>('/companies/global?limit=500');

/** GET /util/marketplace-interests: every company's, newest first. */
export const useMarketplaceInterests = () =>
  useSWR<DataList<MarketplaceInterest>>('/util/marketplace-interests');
