import { normalisePostcode } from '../../../shared/schemas/asset-wizard.ts';
import { DEMO_ESTATES_ASSETS } from '../seed/demo-estates-assets.ts';
import { NORTHWIND } from '../seed/northwind.ts';
import { createPrng } from '../seed/prng.ts';
import { FLOOD_AREAS, type FloodAreaPlace, kmBetween, POSTCODE_AREAS } from './uk-geography-fixtures.ts';

/**
 * Answers of the public services, made up but stable: the same postcode or point always gives the same
 * data, so pages and tests can rely on what they see. The demo sites' postcodes sit where the seed put them.
 */
const KNOWN = new Map<string, { lat: number; lng: number }>(
  [...DEMO_ESTATES_ASSETS, ...NORTHWIND.assets].flatMap((a) => {
    const postcode = normalisePostcode(a.address.postCode);
    return postcode ? [[postcode, { lat: a.lat, lng: a.lng }] as const] : [];
  }),
);

/** Postcodes in the reserved `ZZ` area are valid in form but unknown, as an unallocated postcode is. */
export const UNKNOWN_POSTCODE_AREA = 'ZZ';

/**
 * postcodes.io's answer for one postcode (`result` of `GET /postcodes/{postcode}`): a demo site's postcode
 * where the seed put it, any other within a few kilometres of its area's post town, its district a little
 * way off and the postcode a street's width from that, so neighbouring postcodes sit together.
 */
export function postcodeResult(raw: string) {
  const postcode = normalisePostcode(raw);
  if (!postcode || postcode.startsWith(UNKNOWN_POSTCODE_AREA)) return undefined;
  const [outcode = '', incode = ''] = postcode.split(' ');
  const areaCode = /^[A-Z]+/.exec(outcode)?.[0] ?? '';
  const place = POSTCODE_AREAS[areaCode];
  // A valid-looking postcode in no area is one Royal Mail never allocated.
  if (!place) return undefined;
  const london = place.region === 'London';
  const district = createPrng(`district:${outcode}`);
  const street = createPrng(`postcode:${postcode}`);
  const spread = london ? 0.025 : 0.06;
  const at = KNOWN.get(postcode) ?? {
    lat: place.lat + district.between(-spread, spread) + street.between(-0.003, 0.003),
    lng: place.lng + district.between(-spread * 1.6, spread * 1.6) + street.between(-0.005, 0.005),
  };
  return {
    postcode,
    quality: 1,
    eastings: null,
    northings: null,
    country: place.country,
    nhs_ha: null,
    longitude: Math.round(at.lng * 1e6) / 1e6,
    latitude: Math.round(at.lat * 1e6) / 1e6,
    european_electoral_region: place.region,
    primary_care_trust: null,
    region: place.country === 'England' ? place.region : null,
    lsoa: null,
    msoa: null,
    incode,
    outcode,
    parliamentary_constituency: null,
    admin_district: place.town,
    parish: null,
    admin_county: null,
    date_of_introduction: null,
    admin_ward: null,
    ced: null,
    ccg: null,
    nuts: null,
    pfa: null,
    codes: {},
  };
}

const CRIME_CATEGORIES = [
  'anti-social-behaviour',
  'bicycle-theft',
  'burglary',
  'criminal-damage-arson',
  'drugs',
  'other-theft',
  'public-order',
  'robbery',
  'shoplifting',
  'theft-from-the-person',
  'vehicle-crime',
  'violent-crime',
] as const;
const OUTCOMES = [
  'Investigation complete; no suspect identified',
  'Under investigation',
  'Unable to prosecute suspect',
];
const STREETS = ['High Street', 'Station Road', 'Church Lane', 'Park Road', 'Victoria Street', 'Mill Lane'];

const pointKey = (lat: number, lng: number) => `${lat.toFixed(3)},${lng.toFixed(3)}`;

/** The month the police data covers: two months back, as the real data lags. */
export function latestCrimeMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return d.toISOString().slice(0, 7);
}

export function crimesNear(lat: number, lng: number, month = latestCrimeMonth()) {
  const rng = createPrng(`crime:${pointKey(lat, lng)}:${month}`);
  return Array.from({ length: rng.int(4, 28) }, (_, i) => {
    const street = rng.pick(STREETS);
    return {
      category: rng.pick(CRIME_CATEGORIES),
      location_type: 'Force',
      location: {
        latitude: (lat + rng.between(-0.01, 0.01)).toFixed(6),
        street: { id: 1_000_000 + rng.int(0, 99_999), name: `On or near ${street}` },
        longitude: (lng + rng.between(-0.01, 0.01)).toFixed(6),
      },
      context: '',
      outcome_status: rng.chance(0.6) ? { category: rng.pick(OUTCOMES), date: month } : null,
      persistent_id: rng.digits(16),
      id: 100_000_000 + i + rng.int(0, 9_000_000),
      location_subtype: '',
      month,
    };
  });
}

const SEVERITY = ['Severe Flood Warning', 'Flood Warning', 'Flood Alert', 'Warning no Longer in Force'];

const FLOOD_BASE = 'http://environment.data.gov.uk/flood-monitoring/id';

/** The flood areas within `distKm` of a point, nearest first, as `GET /id/floodAreas?lat&long&dist` has them. */
export function floodAreasNear(lat: number, lng: number, distKm: number) {
  return FLOOD_AREAS.map((a) => ({ a, km: kmBetween({ lat, lng }, a) }))
    .filter(({ km }) => km <= distKm)
    .sort((x, y) => x.km - y.km)
    .map(({ a }) => floodAreaItem(a));
}

function floodAreaItem(a: FloodAreaPlace) {
  return {
    '@id': `${FLOOD_BASE}/floodAreas/${a.notation}`,
    county: a.county,
    description: a.description,
    eaAreaName: a.eaAreaName,
    floodWatchArea: a.notation,
    fwdCode: a.notation,
    label: a.description,
    lat: a.lat,
    long: a.lng,
    notation: a.notation,
    polygon: `${FLOOD_BASE}/floodAreas/${a.notation}/polygon`,
    riverOrSea: a.riverOrSea,
  };
}

/**
 * The warnings and alerts in force on the flood areas within `distKm` of a point (`GET /id/floods`): each
 * about its own area's river or sea, so a site only hears of water near it. Which areas have one, and how
 * severe, is fixed per area.
 */
export function floodsNear(lat: number, lng: number, distKm: number) {
  return FLOOD_AREAS.filter((a) => kmBetween({ lat, lng }, a) <= distKm).map((a) => {
    const rng = createPrng(`flood:${a.notation}`);
    const level = a.notation.includes('FW') ? rng.int(1, 3) : rng.pick([3, 4]);
    const raised = new Date(Date.now() - rng.int(1, 72) * 3_600_000).toISOString().slice(0, 19);
    return {
      '@id': `${FLOOD_BASE}/floods/${a.notation}`,
      description: a.description,
      eaAreaName: a.eaAreaName,
      eaRegionName: 'No longer used',
      floodArea: {
        '@id': `${FLOOD_BASE}/floodAreas/${a.notation}`,
        county: a.county,
        notation: a.notation,
        polygon: `${FLOOD_BASE}/floodAreas/${a.notation}/polygon`,
        riverOrSea: a.riverOrSea,
      },
      floodAreaID: a.notation,
      isTidal: /tidal/i.test(a.description),
      message: `Levels on the ${a.riverOrSea} are rising. Flooding of low-lying land near ${a.description.replace(/^.* at /, '')} is possible.`,
      severity: SEVERITY[level - 1],
      severityLevel: level,
      timeMessageChanged: raised,
      timeRaised: raised,
      timeSeverityChanged: raised,
    };
  });
}

const PARAMETERS = [
  { id: 2, name: 'pm25', units: 'µg/m³', displayName: 'PM2.5', range: [3, 25] },
  { id: 1, name: 'pm10', units: 'µg/m³', displayName: 'PM10', range: [8, 40] },
  { id: 5, name: 'no2', units: 'µg/m³', displayName: 'NO₂', range: [10, 60] },
  { id: 3, name: 'o3', units: 'µg/m³', displayName: 'O₃', range: [20, 90] },
] as const;

/** Monitoring stations around a point, each with sensors; ids encode the point so `latest` can find it. */
export function airQualityLocations(lat: number, lng: number, radius: number) {
  const rng = createPrng(`openaq:${pointKey(lat, lng)}`);
  const count = radius < 2000 ? 0 : rng.int(1, 3);
  return Array.from({ length: count }, (_, i) => {
    const id = 2000 + (Math.abs(Math.round(lat * 1000) * 7 + Math.round(lng * 1000) * 13) % 7000) * 10 + i;
    const distance = Math.round(rng.between(300, Math.min(radius, 9000)));
    return {
      id,
      name: `${rng.pick(['Urban Background', 'Roadside', 'Kerbside'])} ${i + 1}`,
      locality: null,
      timezone: 'Europe/London',
      country: { id: 79, code: 'GB', name: 'United Kingdom' },
      isMobile: false,
      isMonitor: true,
      coordinates: {
        latitude: lat + (distance / 111_000) * 0.7,
        longitude: lng + (distance / 111_000) * 0.7,
      },
      sensors: PARAMETERS.map((p, j) => ({
        id: id * 10 + j,
        name: `${p.name} ${p.units}`,
        parameter: { id: p.id, name: p.name, units: p.units, displayName: p.displayName },
      })),
      distance,
      datetimeLast: { utc: new Date().toISOString(), local: new Date().toISOString() },
    };
  });
}

export function airQualityLatest(locationId: number) {
  const rng = createPrng(`openaq-latest:${locationId}`);
  const hour = new Date();
  hour.setUTCMinutes(0, 0, 0);
  return PARAMETERS.map((p, j) => ({
    datetime: { utc: hour.toISOString(), local: hour.toISOString() },
    value: Math.round(rng.between(p.range[0], p.range[1]) * 10) / 10,
    coordinates: null,
    sensorsId: locationId * 10 + j,
    locationsId: locationId,
  }));
}
