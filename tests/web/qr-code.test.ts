import { describe, expect, it } from 'vitest';
import { qrModules, qrPath } from '../../web/features/profile/qr-code.tsx';

const URI =
  'otpauth://totp/Voltfolio:owner%40demo.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Voltfolio';

/** A finder pattern: a 7×7 dark ring, a light ring, and a 3×3 dark centre. */
function isFinder(m: boolean[][], top: number, left: number): boolean {
  for (let y = 0; y < 7; y++) {
    for (let x = 0; x < 7; x++) {
      const ring = y === 0 || y === 6 || x === 0 || x === 6;
      const centre = y >= 2 && y <= 4 && x >= 2 && x <= 4;
      if (m[top + y]?.[left + x] !== (ring || centre)) return false;
    }
  }
  return true;
}

describe('the authenticator QR code', () => {
  it('is a square QR symbol with a 4-module quiet zone and its three finder patterns', () => {
    const m = qrModules(URI);
    const size = m.length;
    expect(m.every((row) => row.length === size)).toBe(true);
    const symbol = size - 8;
    // QR symbols are 21 + 4 × (version - 1) modules wide.
    expect((symbol - 21) % 4).toBe(0);
    expect(m[0]?.some(Boolean)).toBe(false);
    expect(m[3]?.some(Boolean)).toBe(false);
    expect(isFinder(m, 4, 4)).toBe(true);
    expect(isFinder(m, 4, size - 11)).toBe(true);
    expect(isFinder(m, size - 11, 4)).toBe(true);
    expect(isFinder(m, size - 11, size - 11)).toBe(false);
  });

  it('grows with the text it holds', () => {
    expect(
      qrModules(`${URI}&algorithm=SHA1&digits=6&period=30&padding=${'x'.repeat(120)}`).length,
    ).toBeGreaterThan(qrModules(URI).length);
  });

  it('draws one unit square per dark module', () => {
    expect(
      qrPath([
        [true, false],
        [false, true],
      ]),
    ).toBe('M0 0h1v1h-1zM1 1h1v1h-1z');
    expect(qrPath([[false]])).toBe('');
  });
});
