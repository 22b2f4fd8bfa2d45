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
