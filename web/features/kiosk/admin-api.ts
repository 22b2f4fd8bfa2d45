import useSWR from 'swr';
import type { AssetView } from '../../../shared/schemas/responses/assets.ts';
import type { DataList, ListPage } from '../../../shared/schemas/responses/common.ts';
import type {
  KioskCredential,
  KioskLive,
  KioskRecord,
  PairedScreen,
  ScreenPaired,
  SlideKey,
} from '../../../shared/schemas/responses/kiosk.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type { KioskCredential, KioskRecord, PairedScreen } from '../../../shared/schemas/responses/kiosk.ts';

const KIOSKS = '/kiosks?limit=200';
const SCREENS = '/kiosks/optisigns/screens';

/** GET /kiosks: the company's kiosks. */
export const useKiosks = () => useSWR<ListPage<KioskRecord>>(KIOSKS);

/** GET /assets: the company's sites to put a kiosk in. */
export const useKioskSites = () =>
  useSWR<DataList<Pick<AssetView, '_id' | 'siteName'>>>('/assets?limit=1000');

/** GET /kiosks/optisigns/screens */
export const useScreens = () => useSWR<DataList<PairedScreen>>(SCREENS);

/** GET /kiosks/{id}/preview: what the kiosk's screen shows, read as the signed-in admin. */
export const useKioskPreview = (id: string | undefined) =>
  useSWR<KioskLive>(id ? `/kiosks/${id}/preview` : null);

/** POST /kiosks */
export const useCreateKiosk = () =>
  useEndpoint(
    (api, body: { name: string; assetId: string; slides: SlideKey[] }) =>
      api.post<KioskRecord & KioskCredential>('/kiosks', body),
    () => [KIOSKS],
  );

/** PATCH /kiosks/{id}: its name and slides. */
export const useUpdateKiosk = () =>
  useEndpoint(
    (api, id: string, body: { slides: SlideKey[] }) => api.patch<KioskRecord>(`/kiosks/${id}`, body),
    (_r, [id]) => [KIOSKS, `/kiosks/${id}/preview`],
  );

/** POST /kiosks/{id}/rotate-secret */
export const useRotateKiosk = () =>
  useEndpoint((api, id: string) => api.post<KioskCredential>(`/kiosks/${id}/rotate-secret`));

/** POST /kiosks/optisigns/screens */
export const usePairScreen = () =>
  useEndpoint(
    (api, kioskId: string, pairingCode: string) => api.post<ScreenPaired>(SCREENS, { kioskId, pairingCode }),
    () => [SCREENS],
  );

/** DELETE /kiosks/optisigns/screens/{deviceId}: the screen is released and shows a pairing code again. */
export const useUnpairScreen = () =>
  useEndpoint(
    (api, deviceId: string) => api.del<undefined>(`${SCREENS}/${encodeURIComponent(deviceId)}`),
    () => [SCREENS],
  );
