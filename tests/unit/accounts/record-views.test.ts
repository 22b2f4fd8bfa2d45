import { describe, expect, it } from 'vitest';
import { contractView } from '../../../functions/accounts/contract-store.ts';
import { readingView } from '../../../functions/accounts/reading-rules.ts';

const stamps = {
  companyId: 'c1',
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-06T10:00:00.000Z',
  createdBy: 'u1',
};

describe('a contract as answered', () => {
  it('keeps every stored field, names its file without the storage key', () => {
    const stored = {
      _id: 'k1',
      accountId: 'a1',
      name: 'Supply 2026',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      status: 'inactive',
      isRenewable: true,
      regoBacked: false,
      rateTypes: [{ name: 'Day', kind: 'standing', rate: 0.3, unit: 'p/day' }],
      file: { key: 'contracts/c1/a1/k1.pdf', name: 'contract.pdf', size: 1200, uploadedAt: '2026-01-05' },
      ...stamps,
    };
    const { file: _file, ...fields } = stored;
    expect(contractView(stored, 'a1')).toEqual({
      ...fields,
      file: { name: 'contract.pdf', size: 1200, uploadedAt: '2026-01-05' },
    });
  });

  it("answers a contract stored before its account, status and rates were kept with the schema's defaults", () => {
    const stored = { _id: 'k2', name: 'Old', startDate: '2020-01-01', endDate: '2020-12-31', ...stamps };
    expect(contractView(stored, 'a1')).toEqual({
      ...stored,
      accountId: 'a1',
      status: 'active',
      isRenewable: false,
      rateTypes: [],
      file: null,
    });
  });
});

describe('a reading as answered', () => {
  it('keeps every stored field and says whether it has a photo, never the photo key', () => {
    const stored = {
      _id: 'r1',
      accountId: 'a1',
      date: '2026-02-01',
      value: 1234.5,
      unit: 'kWh',
      isEstimate: true,
      photo: { key: 'readings/c1/a1/p.jpg', name: 'p.jpg', uploadedAt: '2026-02-01' },
      ...stamps,
    };
    const { photo: _photo, ...fields } = stored;
    expect(readingView(stored)).toEqual({ ...fields, hasPhoto: true, photoName: 'p.jpg' });
    const { photo: _p, isEstimate: _e, ...older } = stored;
    expect(readingView(older)).toEqual({ ...older, isEstimate: false, hasPhoto: false });
  });
});
