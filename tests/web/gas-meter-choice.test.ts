import { describe, expect, it } from 'vitest';
import type { GasMeterChoice } from '../../shared/schemas/util-staff.ts';
import { gasMeterLabel, gasMeterMatches } from '../../web/features/staff-tools/gas-meter-choice.ts';

const aldgate: GasMeterChoice = {
  _id: '0123456789abcdef01234567',
  name: 'Boiler house',
  meterPointNumber: '7512345678',
  siteName: 'Aldgate House',
};

describe('choosing a gas meter', () => {
  it('names a meter with its MPRN, when it has one', () => {
    expect(gasMeterLabel(aldgate)).toBe('Boiler house · MPRN 7512345678');
    expect(gasMeterLabel({ _id: aldgate._id, name: 'Kitchen' })).toBe('Kitchen');
  });

  it('finds a meter by its name, its site or its MPRN typed with spaces, in any case and order', () => {
    for (const typed of ['boiler', 'ALDGATE', 'house boiler', '75123 45678', '12345', '']) {
      expect(gasMeterMatches(aldgate, typed), typed).toBe(true);
    }
  });

  it('leaves out a meter that does not answer every word typed', () => {
    for (const typed of ['kitchen', 'aldgate kitchen', '99999']) {
      expect(gasMeterMatches(aldgate, typed), typed).toBe(false);
    }
  });
});
