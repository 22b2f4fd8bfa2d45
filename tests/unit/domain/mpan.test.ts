import { describe, expect, it } from 'vitest';
import {
  isValidMpanCore,
  MPAN_DISTRIBUTORS,
  MPAN_MESSAGE,
  mpanCheckDigit,
  mpanError,
  parseFullMpan,
} from '../../../shared/domain/mpan.ts';

describe('MPAN core', () => {
  it('accepts the published valid examples', () => {
    expect(isValidMpanCore('1312345678907')).toBe(true);
    expect(isValidMpanCore('2099999999993')).toBe(true);
  });

  it('computes the check digit of the examples from their first 12 digits', () => {
    expect(mpanCheckDigit('131234567890')).toBe(7);
    expect(mpanCheckDigit('209999999999')).toBe(3);
  });

  it('rejects a wrong check digit, a wrong length and non-digits', () => {
    expect(isValidMpanCore('1312345678900')).toBe(false);
    expect(isValidMpanCore('2099999999990')).toBe(false);
    expect(isValidMpanCore('131234567890')).toBe(false);
    expect(isValidMpanCore('13123456789077')).toBe(false);
    expect(isValidMpanCore('13123456789O7')).toBe(false);
    expect(isValidMpanCore('')).toBe(false);
  });

  it('catches a single mistyped digit', () => {
    // Changing digit 4 of a valid core must break the check.
    expect(isValidMpanCore('1313345678907')).toBe(false);
  });

  it('refuses to compute a check digit from anything but 12 digits', () => {
    expect(() => mpanCheckDigit('12345')).toThrow();
  });

  it('gives the field message for an invalid core and none for a valid one with spaces', () => {
    expect(mpanError('13 1234 5678 907')).toBeUndefined();
    expect(mpanError('1312345678901')).toBe(MPAN_MESSAGE);
    expect(MPAN_MESSAGE).toBe('Must be a valid 13-digit MPAN');
  });

  it('names the distributor areas 10 to 23', () => {
    expect(Object.keys(MPAN_DISTRIBUTORS)).toHaveLength(14);
    expect(MPAN_DISTRIBUTORS['12']?.area).toBe('London');
  });
});

describe('full MPAN', () => {
  it('splits the top line from the core', () => {
    expect(parseFullMpan('S 03 801 100 13 1234 5678 907')).toEqual({
      profileClass: '03',
      meterTimeswitchCode: '801',
      lineLossFactorClass: '100',
      core: '1312345678907',
      distributorId: '13',
    });
  });

  it('rejects a full MPAN whose core fails the check or whose length is wrong', () => {
    expect(parseFullMpan('03 801 100 1312345678900')).toBeUndefined();
    expect(parseFullMpan('03 801 1312345678907')).toBeUndefined();
  });
});
