import useSWR from 'swr';
import type { MachineAsset, MachineSelf } from '../../../shared/schemas/responses/machine.ts';
import type { DeviceApi } from '../../lib/device-auth.ts';

export type { MachineAsset, MachineSelf } from '../../../shared/schemas/responses/machine.ts';

/** GET /users/me with the machine's key: whether the key is accepted. */
export const useMachineSelf = (api: DeviceApi, machineId: string) =>
  useSWR<MachineSelf>(['m2m', machineId, 'me'], () => api.get('/users/me'), { shouldRetryOnError: false });

/** GET /assets/{id} with the machine's key. */
export const useMachineAsset = (api: DeviceApi, assetId: string) =>
  useSWR<MachineAsset>(['m2m', 'asset', assetId], () => api.get(`/assets/${encodeURIComponent(assetId)}`));
