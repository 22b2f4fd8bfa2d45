import { describe, expect, it } from 'vitest';
import {
  MACHINE_ID_KEY,
  MACHINE_KEY_KEY,
  parseKioskAuth,
  readMachineAuth,
} from '../../web/lib/device-auth.ts';

describe('kiosk and machine credentials', () => {
  it('accepts a kiosk id and secret separated by a bar', () => {
    expect(parseKioskAuth('k1|s3cret')).toEqual({ id: 'k1', secret: 's3cret' });
  });

  it('refuses anything else (INVALID_AUTH)', () => {
    for (const raw of [null, '', 'k1', 'k1|', '|s', 'a|b|c']) expect(parseKioskAuth(raw)).toBeNull();
  });

  it('needs both a stored machine id and key (INVALID_STORAGE otherwise)', () => {
    const storage = (values: Record<string, string>) => ({ getItem: (k: string) => values[k] ?? null });
    expect(readMachineAuth(storage({ [MACHINE_ID_KEY]: 'm1', [MACHINE_KEY_KEY]: 'k' }))).toEqual({
      id: 'm1',
      key: 'k',
    });
    expect(readMachineAuth(storage({ [MACHINE_ID_KEY]: 'm1' }))).toBeNull();
    expect(readMachineAuth(storage({}))).toBeNull();
  });
});
