import { type ApiError, createApiClient } from './api-client.ts';

/** Kiosk and machine credentials (01 §2.1, §5). */

export interface KioskAuth {
  id: string;
  secret: string;
}

/** `kioskAuth` must be `id|secret`, both parts present; anything else is INVALID_AUTH. */
export function parseKioskAuth(raw: string | null | undefined): KioskAuth | null {
  if (!raw) return null;
  const parts = raw.split('|');
  if (parts.length !== 2) return null;
  const [id, secret] = parts.map((p) => p.trim());
  if (!id || !secret) return null;
  return { id, secret };
}

export const MACHINE_ID_KEY = 'voltfolio.machineId';
export const MACHINE_KEY_KEY = 'voltfolio.machineKey';

export interface MachineAuth {
  id: string;
  key: string;
}

/** Machine mode needs both a stored machine id and a stored key; otherwise INVALID_STORAGE. */
export function readMachineAuth(storage: Pick<Storage, 'getItem'>): MachineAuth | null {
  const id = storage.getItem(MACHINE_ID_KEY);
  const key = storage.getItem(MACHINE_KEY_KEY);
  return id && key ? { id, key } : null;
}

export type DeviceErrorCode = 'INVALID_AUTH' | 'INVALID_STORAGE' | 'AUTH_ERROR' | (string & {});

function errorPath(base: string, code: DeviceErrorCode, data?: string): string {
  const query = new URLSearchParams({ code });
  if (data) query.set('data', data);
  return `${base}?${query.toString()}`;
}

/** Where a kiosk goes when it cannot show its display: the code and data travel in the query (01 §2.1). */
export function kioskErrorPath(code: DeviceErrorCode, data?: string): string {
  return errorPath('/kiosk/error', code, data);
}

export function machineErrorPath(code: DeviceErrorCode, data?: string): string {
  return errorPath('/m2m/error', code, data);
}

/** The headers a kiosk sends instead of a token (01 §7): `X-Kiosk-Key: id:secret`, plus the preview flag. */
export function kioskHeaders(auth: KioskAuth, preview: boolean): Record<string, string> {
  return {
    'X-Kiosk-Key': `${auth.id}:${auth.secret}`,
    ...(preview ? { 'X-Kiosk-Preview': 'true' } : {}),
  };
}

/** A machine sends `X-Key: id:key` (01 §7). */
export function machineHeaders(auth: MachineAuth): Record<string, string> {
  return { 'X-Key': `${auth.id}:${auth.key}` };
}

export interface DeviceApi {
  get<T>(path: string, options?: { signal?: AbortSignal }): Promise<T>;
}

/**
 * The API as a kiosk or machine calls it: its own key in a header and no token. A 401 marks the
 * device unauthorised (`onUnauthorized`) rather than signing anyone out (01 §4).
 */
export function createDeviceApi(options: {
  baseUrl: string;
  headers: Record<string, string>;
  onUnauthorized: (error: ApiError) => void;
  fetch?: typeof globalThis.fetch;
}): DeviceApi {
  const api = createApiClient({
    baseUrl: options.baseUrl,
    getToken: async () => null,
    onUnauthorized: options.onUnauthorized,
    fetch: options.fetch,
  });
  return { get: (path, opts) => api.get(path, { ...opts, headers: options.headers }) };
}

/**
 * The API as a machine page calls it. A 401 at any time, not only on the first check, marks the
 * machine unauthorised: `leave` is sent to AUTH_ERROR with the status (01 §4, §8).
 */
export function createMachineApi(options: {
  baseUrl: string;
  auth: MachineAuth;
  leave: (path: string) => void;
  fetch?: typeof globalThis.fetch;
}): DeviceApi {
  return createDeviceApi({
    baseUrl: options.baseUrl,
    headers: machineHeaders(options.auth),
    onUnauthorized: (error) => options.leave(machineErrorPath('AUTH_ERROR', String(error.status))),
    fetch: options.fetch,
  });
}
