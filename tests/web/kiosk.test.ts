import { describe, expect, it, vi } from 'vitest';
import {
  carbonSummary,
  compareMonths,
  type KioskConsumption,
  monthLabel,
  SLIDES,
  slidesOf,
} from '../../web/features/kiosk/kiosk-data.ts';
import {
  createDeviceApi,
  createMachineApi,
  kioskErrorPath,
  kioskHeaders,
  machineErrorPath,
  machineHeaders,
} from '../../web/lib/device-auth.ts';

const CONSUMPTION: KioskConsumption = {
  assetId: 'a1',
  month: '2026-10',
  data: [
    { utilityType: 'electricity', consumption: 9000, unit: 'kWh', emissionsKg: 1800 },
    { utilityType: 'gas', consumption: 4000, unit: 'kWh', emissionsKg: 700 },
  ],
  sameMonthLastYear: {
    month: '2025-10',
    data: [{ utilityType: 'electricity', consumption: 10000, unit: 'kWh', emissionsKg: 2000 }],
  },
};

describe('the kiosk slides', () => {
  it('come in the order and with the subtitles of the specification', () => {
    expect(SLIDES.map((s) => [s.title, s.subtitle])).toEqual([
      ['Leaderboard', 'See how your floor is doing compared to others'],
      ['Consumption', "This building's energy consumption"],
      ['News', 'News, weather and travel for your area'],
      ['Energy Usage', 'Recent electricity consumption of this building'],
      ['Carbon', "This building's CO2 emission data"],
    ]);
  });

  it('are the kiosk’s chosen ones, in the order chosen, or all of them when it chose none', () => {
    expect(slidesOf(['carbon', 'leaderboard']).map((s) => s.key)).toEqual(['carbon', 'leaderboard']);
    expect(slidesOf([])).toHaveLength(5);
    expect(slidesOf(undefined)).toHaveLength(5);
    expect(slidesOf(['unknown'])).toHaveLength(5);
  });
});

describe('kiosk figures', () => {
  it('compare each utility with the same month a year before', () => {
    expect(compareMonths(CONSUMPTION)).toEqual([
      { utilityType: 'electricity', unit: 'kWh', current: 9000, previous: 10000, change: -10 },
      { utilityType: 'gas', unit: 'kWh', current: 4000, previous: null, change: null },
    ]);
  });

  it('add up the building’s emissions', () => {
    expect(carbonSummary(CONSUMPTION)).toEqual({ currentKg: 2500, previousKg: 2000, change: 25 });
    expect(carbonSummary({ ...CONSUMPTION, sameMonthLastYear: { month: null, data: [] } }).change).toBeNull();
  });

  it('name months in full', () => {
    expect(monthLabel('2026-10')).toBe('October 2026');
    expect(monthLabel(null)).toBe('');
  });
});

describe('kiosk and machine calls', () => {
  it('carry the kiosk key as id:secret, with the preview flag when previewing', () => {
    expect(kioskHeaders({ id: 'k1', secret: 's3' }, false)).toEqual({ 'X-Kiosk-Key': 'k1:s3' });
    expect(kioskHeaders({ id: 'k1', secret: 's3' }, true)).toEqual({
      'X-Kiosk-Key': 'k1:s3',
      'X-Kiosk-Preview': 'true',
    });
    expect(machineHeaders({ id: 'm1', key: 'k' })).toEqual({ 'X-Key': 'm1:k' });
  });

  it('send no bearer token, and mark the device unauthorised on a 401', async () => {
    const seen: Headers[] = [];
    const onUnauthorized = vi.fn();
    const api = createDeviceApi({
      baseUrl: 'http://localhost:3000/api',
      headers: kioskHeaders({ id: 'k1', secret: 'wrong' }, false),
      onUnauthorized,
      fetch: (async (_url: RequestInfo | URL, init: RequestInit = {}) => {
        seen.push(new Headers(init.headers));
        return new Response(JSON.stringify({ code: 'INVALID_AUTH', message: 'The kiosk key is not valid' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
    });
    await expect(api.get('/kiosks/live')).rejects.toMatchObject({ status: 401, code: 'INVALID_AUTH' });
    expect(seen[0]?.get('x-kiosk-key')).toBe('k1:wrong');
    expect(seen[0]?.has('authorization')).toBe(false);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('send a machine to AUTH_ERROR when its key is refused after the first check succeeded', async () => {
    const left: string[] = [];
    const statuses = [200, 200, 401];
    const api = createMachineApi({
      baseUrl: 'http://localhost:3000/api',
      auth: { id: 'm1', key: 'revoked' },
      leave: (path) => left.push(path),
      fetch: (async () => {
        const status = statuses.shift() ?? 401;
        const body = status === 200 ? { _id: 'm1' } : { code: 'UNAUTHORISED', message: 'Unauthorised' };
        return new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
    });
    await api.get('/users/me');
    await api.get('/assets/a1');
    expect(left).toEqual([]);
    await expect(api.get('/assets/a1')).rejects.toMatchObject({ status: 401 });
    expect(left).toEqual(['/m2m/error?code=AUTH_ERROR&data=401']);
  });

  it('lead to the error pages with the code and data in the query', () => {
    expect(kioskErrorPath('INVALID_AUTH', 'no kioskAuth')).toBe(
      '/kiosk/error?code=INVALID_AUTH&data=no+kioskAuth',
    );
    expect(machineErrorPath('AUTH_ERROR', '401')).toBe('/m2m/error?code=AUTH_ERROR&data=401');
    expect(machineErrorPath('INVALID_STORAGE')).toBe('/m2m/error?code=INVALID_STORAGE');
  });
});
