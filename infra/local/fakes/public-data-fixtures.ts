import { normalisePostcode } from '../../../shared/schemas/asset-wizard.ts';
import { DEMO_ESTATES_ASSETS } from '../seed/demo-estates-assets.ts';
import { NORTHWIND } from '../seed/northwind.ts';
import { createPrng } from '../seed/prng.ts';

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

export function postcodeResult(raw: string) {
  const postcode = normalisePostcode(raw);
  if (!postcode || postcode.startsWith(UNKNOWN_POSTCODE_AREA)) return undefined;
  const rng = createPrng(`postcode:${postcode}`);
  const at = KNOWN.get(postcode) ?? { lat: rng.between(50.6, 54.9), lng: rng.between(-3.4, 0.6) };
  return {
    postcode,
    quality: 1,
    country: 'England',
    latitude: Math.round(at.lat * 1e6) / 1e6,
    longitude: Math.round(at.lng * 1e6) / 1e6,
    outcode: postcode.split(' ')[0],
    incode: postcode.split(' ')[1],
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
const RIVERS = ['River Thames', 'River Severn', 'River Irwell', 'River Aire', 'River Avon', 'River Trent'];

export function floodsNear(lat: number, lng: number, distKm: number) {
  const rng = createPrng(`flood:${pointKey(lat, lng)}`);
  // Wider searches find more areas, as they do against the real service.
  const count = Math.min(4, Math.floor(rng.int(0, 2) + distKm / 10));
  return Array.from({ length: count }, (_, i) => {
    const level = rng.int(2, 4);
    const river = rng.pick(RIVERS);
    const areaId = `06${rng.pick(['FW', 'WA'])}F${rng.digits(3)}`;
    const raised = new Date(Date.now() - rng.int(1, 72) * 3_600_000).toISOString().slice(0, 19);
    return {
      '@id': `http://environment.data.gov.uk/flood-monitoring/id/floods/${areaId}`,
      description: `${river} at ${STREETS[i % STREETS.length]}`,
      eaAreaName: rng.pick([
        'Thames',
        'West Midlands',
        'Greater Manchester Merseyside and Cheshire',
        'Yorkshire',
      ]),
      eaRegionName: 'No longer used',
      floodArea: {
        '@id': `http://environment.data.gov.uk/flood-monitoring/id/floodAreas/${areaId}`,
        county: '',
        notation: areaId,
        polygon: '',
        riverOrSea: river,
      },
      floodAreaID: areaId,
      isTidal: rng.chance(0.1),
      message: `River levels on the ${river} are rising. Flooding of low-lying land is possible.`,
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
