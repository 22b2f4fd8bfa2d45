import { describe, expect, it } from 'vitest';
import {
  isIndependentTransporterMprn,
  isValidMprn,
  MPRN_MESSAGE,
  mprnError,
} from '../../../shared/domain/mprn.ts';

describe('MPRN', () => {
  it('accepts 6 to 11 digits', () => {
    expect(isValidMprn('123456')).toBe(true);
    expect(isValidMprn('1234567890')).toBe(true);
    expect(isValidMprn('74123456789')).toBe(true);
  });

  it('rejects too short, too long and non-digit values', () => {
    expect(isValidMprn('12345')).toBe(false);
    expect(isValidMprn('123456789012')).toBe(false);
    expect(isValidMprn('12345A7')).toBe(false);
  });

  it('gives the field message', () => {
    expect(mprnError('12345')).toBe('Must be a valid MPRN (6 to 11 digits)');
    expect(mprnError('8 8123 4567')).toBeUndefined();
    expect(MPRN_MESSAGE).toBe('Must be a valid MPRN (6 to 11 digits)');
  });

  it('recognises independent transporter MPRNs starting 74 to 77', () => {
    expect(isIndependentTransporterMprn('7412345678')).toBe(true);
    expect(isIndependentTransporterMprn('7712345678')).toBe(true);
    expect(isIndependentTransporterMprn('7812345678')).toBe(false);
    expect(isIndependentTransporterMprn('8812345678')).toBe(false);
  });
});
