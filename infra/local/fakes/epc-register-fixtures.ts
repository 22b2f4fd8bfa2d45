import { domesticEpcBand, nonDomesticEpcBand } from '../../../shared/domain/epc.ts';
import { normalisePostcode } from '../../../shared/schemas/asset-wizard.ts';
import { DEMO_ESTATES_ASSETS } from '../seed/demo-estates-assets.ts';
import { NORTHWIND } from '../seed/northwind.ts';
import { createPrng } from '../seed/prng.ts';
import { UNKNOWN_POSTCODE_AREA } from './public-data-fixtures.ts';

/**
 * Certificates of the EPC register (`/api/v1/{domestic|non-domestic|display}`), made up but stable per
 * postcode. Each lmk-key encodes its kind, postcode and number, so a certificate is found again by key.
 * A demo site's first non-domestic certificate carries the rating the seed gave the site.
 */
export const EPC_KINDS = ['domestic', 'non-domestic', 'display'] as const;
export type FakeEpcKind = (typeof EPC_KINDS)[number];

const KIND_CODE: Record<FakeEpcKind, string> = { domestic: 'd', 'non-domestic': 'n', display: 'p' };

const SEEDED = new Map<string, { score: number; street: string; town: string; domestic: boolean }>(
  [...DEMO_ESTATES_ASSETS, ...NORTHWIND.assets].flatMap((a) => {
    const postcode = normalisePostcode(a.address.postCode);
    const entry = {
      score: a.epcScore,
      street: a.address.street,
      town: a.address.town,
      domestic: a.assetType === 'Residential block',
    };
    return postcode ? [[postcode, entry] as const] : [];
  }),
);

const hex = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
const unhex = (text: string) =>
  (text.match(/../g) ?? []).map((h) => String.fromCharCode(Number.parseInt(h, 16))).join('');

export function lmkKey(kind: FakeEpcKind, postcode: string, n: number): string {
  return `${KIND_CODE[kind]}${hex(postcode.replace(' ', ''))}x${n}`;
}

const COLUMNS: Record<FakeEpcKind, string[]> = {
  domestic: [
    'lmk-key',
    'address1',
    'address2',
    'address',
    'postcode',
    'current-energy-rating',
    'current-energy-efficiency',
    'property-type',
    'total-floor-area',
    'lodgement-date',
    'inspection-date',
  ],
  'non-domestic': [
    'lmk-key',
    'address1',
    'address2',
    'address',
    'postcode',
    'asset-rating',
    'asset-rating-band',
    'property-type',
    'floor-area',
    'main-heating-fuel',
    'lodgement-date',
    'inspection-date',
  ],
  display: [
    'lmk-key',
    'address1',
    'address2',
    'address',
    'postcode',
    'current-operational-rating',
    'operational-rating-band',
    'property-type',
    'total-floor-area',
    'lodgement-date',
  ],
};

function row(kind: FakeEpcKind, postcode: string, n: number): Record<string, string> {
  const rng = createPrng(`epc:${kind}:${postcode}:${n}`);
  const seeded = SEEDED.get(postcode);
  const street =
    seeded?.street ??
    `${rng.int(1, 120)} ${rng.pick(['Market Street', 'Queen Street', 'King Street', 'London Road'])}`;
  const town = seeded?.town ?? rng.pick(['Leeds', 'Bristol', 'Reading', 'Norwich']);
  const address1 = n === 0 ? street : `Unit ${n + 1}`;
  const address2 = n === 0 ? town : street;
  const lodged = new Date(Date.UTC(2016 + rng.int(0, 8), rng.int(0, 11), rng.int(1, 28)))
    .toISOString()
    .slice(0, 10);
  const base = {
    'lmk-key': lmkKey(kind, postcode, n),
    address1,
    address2,
    address: `${address1}, ${address2}`,
    postcode,
    'lodgement-date': lodged,
    'inspection-date': lodged,
  };
  if (kind === 'domestic') {
    const score = seeded?.domestic && n === 0 ? seeded.score : rng.int(20, 95);
    return {
      ...base,
      'current-energy-efficiency': String(score),
      'current-energy-rating': domesticEpcBand(score) ?? 'G',
      'property-type': rng.pick(['Flat', 'Maisonette', 'House']),
      'total-floor-area': rng.between(40, 140).toFixed(1),
    };
  }
  const rating =
    seeded && !seeded.domestic && n === 0 && kind === 'non-domestic' ? seeded.score : rng.int(15, 180);
  const band = nonDomesticEpcBand(rating) ?? 'G';
  if (kind === 'display')
    return {
      ...base,
      'current-operational-rating': String(rating),
      'operational-rating-band': band,
      'property-type': 'Offices',
      'total-floor-area': String(rng.int(500, 9000)),
    };
  return {
    ...base,
    'asset-rating': String(rating),
    'asset-rating-band': band,
    'property-type': rng.pick([
      'Offices and Workshop businesses',
      'Retail/Financial and Professional services',
      'Storage or Distribution',
    ]),
    'floor-area': String(rng.int(400, 12000)),
    'main-heating-fuel': rng.pick(['Natural Gas', 'Grid Supplied Electricity']),
  };
}

export function searchRows(kind: FakeEpcKind, query: { postcode?: string; address?: string }) {
  const postcode = query.postcode ? normalisePostcode(query.postcode) : undefined;
  if (!postcode || postcode.startsWith(UNKNOWN_POSTCODE_AREA)) return [];
  const count = createPrng(`epc-count:${kind}:${postcode}`).int(1, 3);
  const rows = Array.from({ length: count }, (_, n) => row(kind, postcode, n));
  const words = (query.address ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => words.every((w) => r.address?.toLowerCase().includes(w)));
}

export function certificateRow(kind: FakeEpcKind, key: string) {
  const m = /^([dnp])([0-9a-f]+)x(\d+)$/.exec(key);
  if (!m || m[1] !== KIND_CODE[kind]) return undefined;
  const compact = unhex(m[2] as string);
  const postcode = normalisePostcode(compact);
  const n = Number(m[3]);
  if (!postcode) return undefined;
  return searchRows(kind, { postcode }).find((r) => r['lmk-key'] === lmkKey(kind, postcode, n));
}

export const columnsOf = (kind: FakeEpcKind) => COLUMNS[kind];
