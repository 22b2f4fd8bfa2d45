import useSWR from 'swr';
import type { KioskConsumption, KioskLive, KioskNews } from '../../../shared/schemas/responses/kiosk.ts';
import type { DeviceApi } from '../../lib/device-auth.ts';
import { LIVE_REFRESH_MS } from './kiosk-data.ts';

/** A screen on a wall keeps asking, slowly, whatever went wrong. */
const LIVE = { refreshInterval: LIVE_REFRESH_MS, shouldRetryOnError: true, errorRetryInterval: 30_000 };

/** GET /kiosks/live with the kiosk's own key; the cache is the kiosk's, apart from the user's. */
export const useKioskLive = (api: DeviceApi, kioskId: string) =>
  useSWR<KioskLive>(['kiosk', kioskId, 'live'], () => api.get('/kiosks/live'), LIVE);

/** GET /kiosks/live/consumption */
export const useKioskConsumption = (api: DeviceApi, kioskId: string) =>
  useSWR<KioskConsumption>(
    ['kiosk', kioskId, 'consumption'],
    () => api.get('/kiosks/live/consumption'),
    LIVE,
  );

/** GET /kiosks/live/news */
export const useKioskNews = (api: DeviceApi, kioskId: string) =>
  useSWR<KioskNews>(['kiosk', kioskId, 'news'], () => api.get('/kiosks/live/news'), LIVE);
