import useSWR from 'swr';
import type { DeviceApi } from '../../lib/device-auth.ts';

export interface MachineSelf {
  _id: string;
  name?: string;
  companyId: string;
}

export interface MachineAsset {
  _id: string;
  siteName?: string;
  address?: { streetAddress?: string; locality?: string; region?: string; postCode?: string };
  floorArea?: number;
  images?: { url?: string; isPrimary?: boolean }[];
}

/** GET /users/me with the machine's key: whether the key is accepted. */
export const useMachineSelf = (api: DeviceApi, machineId: string) =>
  useSWR<MachineSelf>(['m2m', machineId, 'me'], () => api.get('/users/me'), { shouldRetryOnError: false });

/** GET /assets/{id} with the machine's key. */
export const useMachineAsset = (api: DeviceApi, assetId: string) =>
  useSWR<MachineAsset>(['m2m', 'asset', assetId], () => api.get(`/assets/${encodeURIComponent(assetId)}`));
