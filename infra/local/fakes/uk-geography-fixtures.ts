/**
 * Where things are, for the local public services: the centre of each postcode area (its main post town)
 * and a set of Environment Agency flood areas with the river or sea they watch. Coordinates are rounded
 * but real, so a site's postcode, its flood areas, crime and air quality all describe the same place.
 */

export interface PostcodeArea {
  lat: number;
  lng: number;
  town: string;
  region: string;
  country: 'England' | 'Scotland' | 'Wales' | 'Northern Ireland' | 'Channel Islands' | 'Isle of Man';
}

const EN = 'England' as const;
const SC = 'Scotland' as const;
const WA = 'Wales' as const;
const area = (
  lat: number,
  lng: number,
  town: string,
  region: string,
  country: PostcodeArea['country'] = EN,
) => ({
  lat,
  lng,
  town,
  region,
  country,
});

const LDN = 'London';
const NW = 'North West';
const NE = 'North East';
const YH = 'Yorkshire and The Humber';
const EM = 'East Midlands';
const WM = 'West Midlands';
const EE = 'East of England';
const SE = 'South East';
const SWR = 'South West';

/** The 121 postcode areas, each at its post town. */
export const POSTCODE_AREAS: Readonly<Record<string, PostcodeArea>> = {
  AB: area(57.15, -2.11, 'Aberdeen', SC, SC),
  AL: area(51.75, -0.34, 'St Albans', EE),
  B: area(52.48, -1.9, 'Birmingham', WM),
  BA: area(51.38, -2.36, 'Bath', SWR),
  BB: area(53.75, -2.48, 'Blackburn', NW),
  BD: area(53.79, -1.75, 'Bradford', YH),
  BH: area(50.72, -1.88, 'Bournemouth', SWR),
  BL: area(53.58, -2.43, 'Bolton', NW),
  BN: area(50.83, -0.14, 'Brighton', SE),
  BR: area(51.4, 0.02, 'Bromley', LDN),
  BS: area(51.45, -2.59, 'Bristol', SWR),
  BT: area(54.6, -5.93, 'Belfast', 'Northern Ireland', 'Northern Ireland'),
  CA: area(54.89, -2.93, 'Carlisle', NW),
  CB: area(52.21, 0.12, 'Cambridge', EE),
  CF: area(51.48, -3.18, 'Cardiff', WA, WA),
  CH: area(53.19, -2.89, 'Chester', NW),
  CM: area(51.74, 0.47, 'Chelmsford', EE),
  CO: area(51.89, 0.9, 'Colchester', EE),
  CR: area(51.37, -0.1, 'Croydon', LDN),
  CT: area(51.28, 1.08, 'Canterbury', SE),
  CV: area(52.41, -1.51, 'Coventry', WM),
  CW: area(53.1, -2.44, 'Crewe', NW),
  DA: area(51.45, 0.22, 'Dartford', SE),
  DD: area(56.46, -2.97, 'Dundee', SC, SC),
  DE: area(52.92, -1.48, 'Derby', EM),
  DG: area(55.07, -3.61, 'Dumfries', SC, SC),
  DH: area(54.78, -1.57, 'Durham', NE),
  DL: area(54.52, -1.55, 'Darlington', NE),
  DN: area(53.52, -1.13, 'Doncaster', YH),
  DT: area(50.71, -2.44, 'Dorchester', SWR),
  DY: area(52.51, -2.09, 'Dudley', WM),
  E: area(51.53, -0.03, 'London', LDN),
  EC: area(51.515, -0.09, 'London', LDN),
  EH: area(55.95, -3.19, 'Edinburgh', SC, SC),
  EN: area(51.65, -0.08, 'Enfield', LDN),
  EX: area(50.72, -3.53, 'Exeter', SWR),
  FK: area(56.0, -3.78, 'Falkirk', SC, SC),
  FY: area(53.82, -3.05, 'Blackpool', NW),
  G: area(55.86, -4.25, 'Glasgow', SC, SC),
  GL: area(51.86, -2.24, 'Gloucester', SWR),
  GU: area(51.24, -0.57, 'Guildford', SE),
  GY: area(49.45, -2.54, 'Guernsey', 'Channel Islands', 'Channel Islands'),
  HA: area(51.58, -0.34, 'Harrow', LDN),
  HD: area(53.65, -1.78, 'Huddersfield', YH),
  HG: area(53.99, -1.54, 'Harrogate', YH),
  HP: area(51.75, -0.47, 'Hemel Hempstead', EE),
  HR: area(52.06, -2.72, 'Hereford', WM),
  HS: area(58.21, -6.39, 'Outer Hebrides', SC, SC),
  HU: area(53.74, -0.33, 'Hull', YH),
  HX: area(53.72, -1.86, 'Halifax', YH),
  IG: area(51.56, 0.07, 'Ilford', LDN),
  IM: area(54.15, -4.48, 'Isle of Man', 'Isle of Man', 'Isle of Man'),
  IP: area(52.06, 1.15, 'Ipswich', EE),
  IV: area(57.48, -4.22, 'Inverness', SC, SC),
  JE: area(49.19, -2.11, 'Jersey', 'Channel Islands', 'Channel Islands'),
  KA: area(55.61, -4.5, 'Kilmarnock', SC, SC),
  KT: area(51.41, -0.3, 'Kingston upon Thames', LDN),
  KW: area(58.98, -2.96, 'Kirkwall', SC, SC),
  KY: area(56.11, -3.16, 'Kirkcaldy', SC, SC),
  L: area(53.41, -2.98, 'Liverpool', NW),
  LA: area(54.05, -2.8, 'Lancaster', NW),
  LD: area(52.24, -3.38, 'Llandrindod Wells', WA, WA),
  LE: area(52.64, -1.13, 'Leicester', EM),
  LL: area(53.32, -3.83, 'Llandudno', WA, WA),
  LN: area(53.23, -0.54, 'Lincoln', EM),
  LS: area(53.8, -1.55, 'Leeds', YH),
  LU: area(51.88, -0.42, 'Luton', EE),
  M: area(53.48, -2.24, 'Manchester', NW),
  ME: area(51.39, 0.5, 'Rochester', SE),
  MK: area(52.04, -0.76, 'Milton Keynes', SE),
  ML: area(55.79, -3.99, 'Motherwell', SC, SC),
  N: area(51.57, -0.11, 'London', LDN),
  NE: area(54.97, -1.61, 'Newcastle upon Tyne', NE),
  NG: area(52.95, -1.15, 'Nottingham', EM),
  NN: area(52.24, -0.9, 'Northampton', EM),
  NP: area(51.58, -3.0, 'Newport', WA, WA),
  NR: area(52.63, 1.3, 'Norwich', EE),
  NW: area(51.55, -0.18, 'London', LDN),
  OL: area(53.54, -2.12, 'Oldham', NW),
  OX: area(51.75, -1.26, 'Oxford', SE),
  PA: area(55.85, -4.42, 'Paisley', SC, SC),
  PE: area(52.57, -0.24, 'Peterborough', EE),
  PH: area(56.4, -3.44, 'Perth', SC, SC),
  PL: area(50.38, -4.14, 'Plymouth', SWR),
  PO: area(50.8, -1.09, 'Portsmouth', SE),
  PR: area(53.76, -2.7, 'Preston', NW),
  RG: area(51.45, -0.97, 'Reading', SE),
  RH: area(51.24, -0.17, 'Redhill', SE),
  RM: area(51.58, 0.18, 'Romford', LDN),
  S: area(53.38, -1.47, 'Sheffield', YH),
  SA: area(51.62, -3.94, 'Swansea', WA, WA),
  SE: area(51.47, -0.06, 'London', LDN),
  SG: area(51.9, -0.2, 'Stevenage', EE),
  SK: area(53.41, -2.15, 'Stockport', NW),
  SL: area(51.51, -0.59, 'Slough', SE),
  SM: area(51.36, -0.19, 'Sutton', LDN),
  SN: area(51.56, -1.78, 'Swindon', SWR),
  SO: area(50.9, -1.4, 'Southampton', SE),
  SP: area(51.07, -1.79, 'Salisbury', SWR),
  SR: area(54.91, -1.38, 'Sunderland', NE),
  SS: area(51.54, 0.71, 'Southend-on-Sea', EE),
  ST: area(53.0, -2.18, 'Stoke-on-Trent', WM),
  SW: area(51.46, -0.17, 'London', LDN),
  SY: area(52.71, -2.75, 'Shrewsbury', WM),
  TA: area(51.02, -3.1, 'Taunton', SWR),
  TD: area(55.61, -2.81, 'Galashiels', SC, SC),
  TF: area(52.68, -2.45, 'Telford', WM),
  TN: area(51.2, 0.27, 'Tonbridge', SE),
  TQ: area(50.46, -3.53, 'Torquay', SWR),
  TR: area(50.26, -5.05, 'Truro', SWR),
  TS: area(54.57, -1.23, 'Middlesbrough', NE),
  TW: area(51.45, -0.34, 'Twickenham', LDN),
  UB: area(51.51, -0.38, 'Southall', LDN),
  W: area(51.51, -0.2, 'London', LDN),
  WA: area(53.39, -2.59, 'Warrington', NW),
  WC: area(51.517, -0.12, 'London', LDN),
  WD: area(51.66, -0.4, 'Watford', EE),
  WF: area(53.68, -1.5, 'Wakefield', YH),
  WN: area(53.55, -2.63, 'Wigan', NW),
  WR: area(52.19, -2.22, 'Worcester', WM),
  WS: area(52.59, -1.98, 'Walsall', WM),
  WV: area(52.59, -2.13, 'Wolverhampton', WM),
  YO: area(53.96, -1.08, 'York', YH),
  ZE: area(60.15, -1.15, 'Lerwick', SC, SC),
};

export interface FloodAreaPlace {
  /** The Environment Agency's notation: region code, FW (warning) or WA (alert) area, then its own code. */
  notation: string;
  description: string;
  eaAreaName: string;
  county: string;
  riverOrSea: string;
  lat: number;
  lng: number;
}

const GMMC = 'Greater Manchester Merseyside and Cheshire';
const THAMES = 'Hertfordshire and North London';
const KSL = 'Kent South London and East Sussex';
const WMID = 'West Midlands';
const WESSEX = 'Wessex';
const YORKS = 'Yorkshire';

/** Flood warning and alert areas of England (Wales and Scotland have their own agencies). */
export const FLOOD_AREAS: readonly FloodAreaPlace[] = [
  {
    notation: '013FWTMERLIV',
    description: 'Tidal Mersey at Liverpool Waterfront',
    eaAreaName: GMMC,
    county: 'Merseyside',
    riverOrSea: 'Mersey Estuary',
    lat: 53.4045,
    lng: -2.9965,
  },
  {
    notation: '013WAFALT',
    description: 'River Alt at Maghull and Aintree',
    eaAreaName: GMMC,
    county: 'Merseyside',
    riverOrSea: 'River Alt',
    lat: 53.49,
    lng: -2.94,
  },
  {
    notation: '013FWFIRWSAL',
    description: 'River Irwell at Salford',
    eaAreaName: GMMC,
    county: 'Greater Manchester',
    riverOrSea: 'River Irwell',
    lat: 53.487,
    lng: -2.27,
  },
  {
    notation: '013FWFDEECHE',
    description: 'River Dee at Chester',
    eaAreaName: GMMC,
    county: 'Cheshire West and Chester',
    riverOrSea: 'River Dee',
    lat: 53.185,
    lng: -2.885,
  },
  {
    notation: '112FWFAVBRIS',
    description: 'River Avon at Bristol (Netham to the Feeder)',
    eaAreaName: WESSEX,
    county: 'City of Bristol',
    riverOrSea: 'River Avon',
    lat: 51.455,
    lng: -2.56,
  },
  {
    notation: '112WAFTAVON',
    description: 'Tidal Avon at Avonmouth and Shirehampton',
    eaAreaName: WESSEX,
    county: 'City of Bristol',
    riverOrSea: 'River Avon',
    lat: 51.495,
    lng: -2.69,
  },
  {
    notation: '112FWFAVBATH',
    description: 'River Avon at Bath',
    eaAreaName: WESSEX,
    county: 'Bath and North East Somerset',
    riverOrSea: 'River Avon',
    lat: 51.38,
    lng: -2.36,
  },
  {
    notation: '031FWFAVSTR',
    description: 'River Avon at Stratford-upon-Avon',
    eaAreaName: WMID,
    county: 'Warwickshire',
    riverOrSea: 'River Avon',
    lat: 52.19,
    lng: -1.705,
  },
  {
    notation: '031WAFREA',
    description: 'River Rea at Digbeth and Deritend',
    eaAreaName: WMID,
    county: 'Birmingham',
    riverOrSea: 'River Rea',
    lat: 52.474,
    lng: -1.886,
  },
  {
    notation: '031FWFSEVSHR',
    description: 'River Severn at Shrewsbury',
    eaAreaName: WMID,
    county: 'Shropshire',
    riverOrSea: 'River Severn',
    lat: 52.71,
    lng: -2.75,
  },
  {
    notation: '031FWFSEVWOR',
    description: 'River Severn at Worcester',
    eaAreaName: WMID,
    county: 'Worcestershire',
    riverOrSea: 'River Severn',
    lat: 52.19,
    lng: -2.225,
  },
  {
    notation: '065FWTTHWAP',
    description: 'Tidal Thames at Wapping and St Katharine Docks',
    eaAreaName: THAMES,
    county: 'Tower Hamlets',
    riverOrSea: 'Tidal Thames',
    lat: 51.5065,
    lng: -0.072,
  },
  {
    notation: '062WAFLEEHAC',
    description: 'River Lee at Hackney Marshes',
    eaAreaName: THAMES,
    county: 'Hackney',
    riverOrSea: 'River Lee',
    lat: 51.555,
    lng: -0.04,
  },
  {
    notation: '065WAFWANDLE',
    description: 'River Wandle at Wandsworth',
    eaAreaName: KSL,
    county: 'Wandsworth',
    riverOrSea: 'River Wandle',
    lat: 51.457,
    lng: -0.19,
  },
  {
    notation: '062WAFRODING',
    description: 'River Roding at Ilford',
    eaAreaName: THAMES,
    county: 'Redbridge',
    riverOrSea: 'River Roding',
    lat: 51.56,
    lng: 0.07,
  },
  {
    notation: '065FWFTHKING',
    description: 'River Thames at Kingston upon Thames',
    eaAreaName: KSL,
    county: 'Kingston upon Thames',
    riverOrSea: 'River Thames',
    lat: 51.41,
    lng: -0.31,
  },
  {
    notation: '064FWTTHGRAYS',
    description: 'Tidal Thames at Grays and West Thurrock',
    eaAreaName: 'Essex Norfolk and Suffolk',
    county: 'Thurrock',
    riverOrSea: 'Tidal Thames',
    lat: 51.472,
    lng: 0.3,
  },
  {
    notation: '061WAFWEYGUI',
    description: 'River Wey at Guildford',
    eaAreaName: 'Solent and South Downs',
    county: 'Surrey',
    riverOrSea: 'River Wey',
    lat: 51.235,
    lng: -0.577,
  },
  {
    notation: '122FWFAIRLDS',
    description: 'River Aire at Leeds city centre',
    eaAreaName: YORKS,
    county: 'Leeds',
    riverOrSea: 'River Aire',
    lat: 53.792,
    lng: -1.54,
  },
  {
    notation: '122WAFCALDER',
    description: 'River Calder at Wakefield',
    eaAreaName: YORKS,
    county: 'Wakefield',
    riverOrSea: 'River Calder',
    lat: 53.677,
    lng: -1.49,
  },
  {
    notation: '122FWFOUSYRK',
    description: 'River Ouse at York',
    eaAreaName: YORKS,
    county: 'York',
    riverOrSea: 'River Ouse',
    lat: 53.956,
    lng: -1.08,
  },
  {
    notation: '121FWTTYNQUA',
    description: 'Tidal Tyne at Newcastle Quayside',
    eaAreaName: 'Northumberland Durham and Tees',
    county: 'Newcastle upon Tyne',
    riverOrSea: 'River Tyne',
    lat: 54.968,
    lng: -1.6,
  },
  {
    notation: '034FWFTRENOT',
    description: 'River Trent at Nottingham (Trent Bridge)',
    eaAreaName: 'East Midlands',
    county: 'Nottingham',
    riverOrSea: 'River Trent',
    lat: 52.935,
    lng: -1.135,
  },
  {
    notation: '034WAFSOAR',
    description: 'River Soar at Leicester',
    eaAreaName: 'East Midlands',
    county: 'Leicester',
    riverOrSea: 'River Soar',
    lat: 52.633,
    lng: -1.145,
  },
  {
    notation: '054FWFWENNOR',
    description: 'River Wensum at Norwich',
    eaAreaName: 'Essex Norfolk and Suffolk',
    county: 'Norfolk',
    riverOrSea: 'River Wensum',
    lat: 52.632,
    lng: 1.3,
  },
];

/** Great-circle distance in km. */
export function kmBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}
