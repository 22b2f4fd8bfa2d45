import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * 24 hex characters: creation milliseconds (12), a per-process sequence (4) and randomness (8), so ids
 * sort in creation order (lists and "newest first" rely on it) and never collide across processes.
 */
export function newId(now: number = Date.now()): string {
  if (now === lastMs) {
    counter = (counter + 1) & 0xffff;
  } else {
    lastMs = now;
    counter = 0;
  }
  return (
    now.toString(16).padStart(12, '0').slice(-12) +
    counter.toString(16).padStart(4, '0') +
    randomBytes(4).toString('hex')
  );
}
