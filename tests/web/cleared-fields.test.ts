import { describe, expect, it } from 'vitest';
import { clearedFields } from '../../web/lib/cleared-fields.ts';

describe('the fields an edit emptied', () => {
  const before = { name: 'Harbour Legal LLP', unit: 'Floor 2', contactEmail: 'a@b.test', floorArea: 450 };

  it('sends null for each field the user emptied that had a value, blank space counting as empty', () => {
    const values = { name: 'Harbour Legal LLP', unit: '  ', contactEmail: '', floorArea: '', leaseEnd: '' };
    expect(clearedFields(values, before)).toEqual({ unit: null, contactEmail: null, floorArea: null });
  });

  it('leaves out filled fields and fields that were empty already', () => {
    const values = {
      name: 'Harbour Legal',
      unit: 'Floor 3',
      contactEmail: 'a@b.test',
      floorArea: '450',
      leaseEnd: '',
    };
    expect(clearedFields(values, { ...before, leaseEnd: '' })).toEqual({});
  });
});
