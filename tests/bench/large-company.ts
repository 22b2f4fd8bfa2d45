/**
 * A large company for benchmarks: 50 entities, sites with UK addresses and meters (electricity, gas, water
 * accounts) under them, written straight to the table the functions are pointed at. The same seed gives
 * the same names, so figures from one run compare with the next.
 */

import type { StoredItem } from '../../functions/core/data/item-repository.ts';
import { putNewItems } from '../../functions/core/imports/import-batch-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { resourceRef } from '../../functions/core/resources/resource-refs.ts';
import type { createPrng } from '../../infra/local/seed/prng.ts';
import { mpanCheckDigit } from '../../shared/domain/mpan.ts';

type Prng = ReturnType<typeof createPrng>;

export const TOWNS = [
  'London',
  'Birmingham',
  'Manchester',
  'Leeds',
  'Liverpool',
  'Bristol',
  'Sheffield',
  'Newcastle',
  'Nottingham',
  'Leicester',
  'Coventry',
  'Bradford',
  'Cardiff',
  'Edinburgh',
  'Glasgow',
  'Aberdeen',
  'Dundee',
  'Swansea',
  'Plymouth',
  'Southampton',
  'Portsmouth',
  'Reading',
  'Oxford',
  'Cambridge',
  'Norwich',
  'Ipswich',
  'York',
  'Hull',
  'Derby',
  'Stoke',
  'Wolverhampton',
  'Exeter',
  'Bath',
  'Gloucester',
  'Cheltenham',
  'Guildford',
  'Brighton',
  'Canterbury',
  'Milton Keynes',
  'Northampton',
  'Peterborough',
  'Lincoln',
  'Preston',
  'Blackpool',
  'Bolton',
  'Wigan',
  'Warrington',
  'Chester',
  'Carlisle',
  'Durham',
  'Sunderland',
  'Middlesbrough',
  'Harrogate',
];
const NAMES = [
  'Aldgate',
  'Temple',
  'Hardman',
  'Victoria',
  'Albert',
  'Kings',
  'Queens',
  'Princes',
  'Regent',
  'Station',
  'Market',
  'Castle',
  'Bridge',
  'River',
  'Park',
  'Church',
  'Mill',
  'Harbour',
  'Quay',
  'Abbey',
  'Crown',
  'Oak',
  'Elm',
  'Cedar',
  'Maple',
  'Willow',
  'Beacon',
  'Gateway',
  'Meridian',
  'Horizon',
  'Northgate',
  'Southgate',
  'Eastgate',
  'Westgate',
  'Riverside',
  'Lakeside',
  'Hillside',
  'Greenwich',
  'Canal',
  'Wharf',
  'Exchange',
  'Colmore',
  'Brindley',
  'Spinningfields',
  'Sovereign',
  'Charter',
  'Guild',
  'Minster',
  'Cathedral',
  'Forge',
];
export const KINDS = [
  'House',
  'Court',
  'Point',
  'Park',
  'Works',
  'Centre',
  'Plaza',
  'Tower',
  'Yard',
  'Buildings',
  'Depot',
];
const STREETS = [
  'High Street',
  'Station Road',
  'Church Lane',
  'Mill Road',
  'Victoria Street',
  'Market Place',
  'Queen Street',
];
const UTILITIES = ['electricity', 'gas', 'water'] as const;
const DISTRIBUTORS = ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23'];

const postcodeOf = (i: number) => {
  const letters = 'ABCDEFGHJKLMNPRSTUWXYZ';
  const area = `${letters[i % 22]}${letters[Math.floor(i / 22) % 22]}`;
  return `${area}${(i % 97) + 1} ${(i % 9) + 1}${letters[(i * 7) % 22]}${letters[(i * 13) % 22]}`;
};
const mpanOf = (rng: Prng) => {
  const first12 = `${rng.pick(DISTRIBUTORS)}${rng.digits(10)}`;
  return `${first12}${mpanCheckDigit(first12)}`;
};

export interface LargeCompany {
  entities: StoredItem[];
  assets: StoredItem[];
  accounts: StoredItem[];
  /** Values people search for: every 50th site name, every 60th postcode, every 200th MPAN. */
  samples: { sites: string[]; postcodes: string[]; mpans: string[] };
  seconds: number;
}

/** Seeds `assets` sites with `accountsPerAsset` meters each into `companyId`, created by `createdBy`. */
export async function seedLargeCompany(opts: {
  companyId: string;
  assets: number;
  accountsPerAsset: number;
  rng: Prng;
  createdBy?: string;
  /** Further fields of the i-th site (a property type, say). */
  siteFields?: (i: number) => Record<string, unknown>;
}): Promise<LargeCompany> {
  const { companyId, rng } = opts;
  const ASSETS = opts.assets;
  const ACCOUNTS_PER_ASSET = opts.accountsPerAsset;
  const stamp = { companyId, createdAt: new Date().toISOString(), createdBy: opts.createdBy ?? 'bench' };
  const seeding = performance.now();
  const entities: StoredItem[] = Array.from({ length: 50 }, (_, i) => ({
    _id: newId(),
    ...stamp,
    legalName: `${rng.pick(NAMES)} ${rng.pick(['Holdings', 'Estates', 'Properties', 'Investments'])} ${i + 1} Ltd`,
    parentEntityId: null,
  }));
  const assets: StoredItem[] = [];
  const accounts: StoredItem[] = [];
  const samples = { sites: [] as string[], postcodes: [] as string[], mpans: [] as string[] };
  for (let i = 0; i < ASSETS; i++) {
    const town = rng.pick(TOWNS);
    const siteName = `${rng.pick(NAMES)} ${rng.pick(KINDS)}${rng.chance(0.3) ? ` ${rng.int(1, 20)}` : ''}`;
    const postCode = postcodeOf(i);
    const asset: StoredItem = {
      _id: newId(),
      ...stamp,
      siteName,
      entityId: rng.pick(entities)._id,
      address: { streetAddress: `${rng.int(1, 300)} ${rng.pick(STREETS)}`, locality: town, postCode },
      floorArea: rng.int(200, 20_000),
      floorAreaUnit: 'm2',
      status: 'active',
      images: [{ url: `/s3/documents/assets/${i}.svg`, isPrimary: true }],
      ...opts.siteFields?.(i),
    };
    assets.push(asset);
    if (i % 50 === 0) samples.sites.push(siteName);
    if (i % 60 === 0) samples.postcodes.push(postCode);
    for (let a = 0; a < ACCOUNTS_PER_ASSET; a++) {
      const type = UTILITIES[a % UTILITIES.length] as (typeof UTILITIES)[number];
      const meterPointNumber = type === 'electricity' ? mpanOf(rng) : rng.digits(10);
      if (type === 'electricity' && accounts.length % 200 === 0) samples.mpans.push(meterPointNumber);
      accounts.push({
        _id: newId(),
        ...stamp,
        name: `${siteName} ${type[0]?.toUpperCase()}${type.slice(1)}${a >= UTILITIES.length ? ` ${a}` : ''}`,
        type,
        meterPointNumber,
        assetId: asset._id,
        status: rng.chance(0.9) ? 'active' : 'inactive',
        tags: [],
      });
    }
  }
  for (const [name, items] of [
    ['entities', entities],
    ['assets', assets],
    ['accounts', accounts],
  ] as const) {
    await putNewItems(items.map((item) => ({ ref: resourceRef(companyId, name), item })));
  }
  return { entities, assets, accounts, samples, seconds: (performance.now() - seeding) / 1000 };
}
