import { randomBytes } from 'node:crypto';

/** 24 hex characters: creation seconds then randomness, so ids sort by creation time like the client expects. */
export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}
