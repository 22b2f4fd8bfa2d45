import type { EpcBand } from '../domain/epc.ts';

/**
 * Regulatory dates of sites: EPC expiry, the minimum energy efficiency standard (MEES) for non-domestic
 * lettings in England and Wales, and lease events. Pure: the sites' facts come in, dated events go out.
 */

export type CalendarEventKind =
  | 'epc-expiry'
  | 'mees'
  | 'lease-end'
  | 'lease-break'
  | 'lease-start'
  | 'crrem-misalignment';

export interface CalendarEvent {
  /** Stable across runs, so a calendar client updates an event rather than adding it twice. */
  id: string;
  kind: CalendarEventKind;
  /** YYYY-MM-DD */
  date: string;
  assetId: string;
  siteName: string;
  title: string;
  /** What to do about it. */
  action: string;
  /** A date under consultation rather than in force. */
  proposed: boolean;
  /** Needs doing: a past date that still applies, or a future one the site does not yet meet. */
  needsAction: boolean;
}

export interface MeesStep {
  /** The date from which lettings must meet the band. */
  from: string;
  minimumBand: EpcBand;
  proposed: boolean;
  /** As the law or the proposal words it. */
  note: string;
}

/**
 * The Energy Efficiency (Private Rented Property) (England and Wales) Regulations 2015: since 1 April 2018
 * no new or renewed non-domestic lease below E, since 1 April 2023 no continued letting below E.
 */
export const MEES_IN_FORCE: readonly MeesStep[] = [
  {
    from: '2023-04-01',
    minimumBand: 'E',
    proposed: false,
    note: 'No non-domestic letting, new or continuing, may be below E (MEES regulations 2015).',
  },
];

/**
 * The government's proposed trajectory for non-domestic lettings (2021 consultation response): C from
 * 1 April 2027, B from 1 April 2030. Not law: shown as proposed, and the dates can be moved.
 */
export const MEES_PROPOSED: readonly MeesStep[] = [
  {
    from: '2027-04-01',
    minimumBand: 'C',
    proposed: true,
    note: 'Proposed: non-domestic lettings to be C or better (government trajectory, not yet law).',
  },
  {
    from: '2030-04-01',
    minimumBand: 'B',
    proposed: true,
    note: 'Proposed: non-domestic lettings to be B or better (government trajectory, not yet law).',
  },
];

export const MEES_SCENARIOS = ['in-force', 'proposed'] as const;
export type MeesScenario = (typeof MEES_SCENARIOS)[number];

/** The steps of a scenario; `proposed` may be given other dates or bands (a newer consultation). */
export function meesSteps(scenario: MeesScenario, proposed: readonly MeesStep[] = MEES_PROPOSED): MeesStep[] {
  return scenario === 'proposed' ? [...MEES_IN_FORCE, ...proposed] : [...MEES_IN_FORCE];
}

const BAND_ORDER: readonly EpcBand[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

/** Whether a band meets a minimum (A best). */
export function meetsBand(band: EpcBand, minimum: EpcBand): boolean {
  return BAND_ORDER.indexOf(band) <= BAND_ORDER.indexOf(minimum);
}

/** EPCs are valid for ten years from lodgement. */
export const EPC_VALID_YEARS = 10;

export function addYears(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) + years;
  const rest = date.slice(4, 10);
  // 29 February has no twin in a common year: the certificate runs to 28 February.
  if (rest === '-02-29' && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return `${y}-02-28`;
  return `${y}${rest}`;
}

export interface SiteFacts {
  assetId: string;
  siteName: string;
  /** England and Wales, where MEES applies; false for a site known to be elsewhere. */
  inEnglandOrWales: boolean;
  epc?: { band: EpcBand; kind?: 'domestic' | 'non-domestic' | 'display'; lodgementDate?: string };
  leases: { id: string; tenant: string; start?: string; end?: string; break?: string }[];
  /** Supplied by the CRREM benchmark when it is worked out; nothing here computes it. */
  crremMisalignmentYear?: number;
}

/** Countries written on sites that mean England or Wales (a site with no country is taken to be there). */
const ENGLAND_WALES = /^(uk|gb|gbr|united kingdom|great britain|england|wales)$/i;

export function inEnglandOrWales(country: string | undefined): boolean {
  return country === undefined || country.trim() === '' || ENGLAND_WALES.test(country.trim());
}

const show = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** Every regulatory event of one site, in date order, judged on `today` (YYYY-MM-DD). */
export function siteEvents(site: SiteFacts, today: string, steps: readonly MeesStep[]): CalendarEvent[] {
  const out: CalendarEvent[] = [];
  const base = { assetId: site.assetId, siteName: site.siteName };
  const epc = site.epc;
  if (epc?.lodgementDate && /^\d{4}-\d{2}-\d{2}/.test(epc.lodgementDate)) {
    const expiry = addYears(epc.lodgementDate.slice(0, 10), EPC_VALID_YEARS);
    out.push({
      ...base,
      id: `epc-expiry-${site.assetId}-${expiry}`,
      kind: 'epc-expiry',
      date: expiry,
      title: expiry < today ? 'EPC expired' : 'EPC expires',
      action:
        'Commission a new EPC before this date: a valid certificate is needed to let or sell the property, and MEES is judged on it.',
      proposed: false,
      needsAction: true,
    });
  }
  // MEES is a rule for non-domestic lettings in England and Wales.
  if (site.inEnglandOrWales && epc?.kind !== 'domestic') {
    for (const step of steps) {
      const meets = epc ? meetsBand(epc.band, step.minimumBand) : false;
      const label = step.proposed ? ' (proposed)' : '';
      out.push({
        ...base,
        id: `mees-${step.minimumBand}-${site.assetId}-${step.from}`,
        kind: 'mees',
        date: step.from,
        title: epc
          ? meets
            ? `MEES minimum ${step.minimumBand}${label}: met (EPC ${epc.band})`
            : `MEES minimum ${step.minimumBand}${label}: EPC ${epc.band} falls short`
          : `MEES minimum ${step.minimumBand}${label}: no EPC held`,
        action: !epc
          ? `Find or commission the site's EPC: without one, compliance with the ${step.minimumBand} minimum cannot be shown. ${step.note}`
          : meets
            ? `Nothing needed while the EPC (band ${epc.band}) stays valid. ${step.note}`
            : `Improve the building to band ${step.minimumBand} or better before ${show(step.from)}, or register a valid exemption on the PRS Exemptions Register, before letting. ${step.note}`,
        proposed: step.proposed,
        needsAction: !meets,
      });
    }
  }
  for (const lease of site.leases) {
    if (lease.end) {
      out.push({
        ...base,
        id: `lease-end-${lease.id}-${lease.end}`,
        kind: 'lease-end',
        date: lease.end,
        title: `Lease ends: ${lease.tenant}`,
        action:
          'Decide on renewal or re-letting; a new or renewed lease needs a valid EPC that meets the MEES minimum at that date.',
        proposed: false,
        needsAction: lease.end >= today,
      });
    }
    // A break passed is history; one to come may end the letting years before the lease says.
    if (lease.break && lease.break >= today && (!lease.end || lease.break < lease.end)) {
      out.push({
        ...base,
        id: `lease-break-${lease.id}-${lease.break}`,
        kind: 'lease-break',
        date: lease.break,
        title: `Lease break option: ${lease.tenant}`,
        action:
          'Check the notice the lease requires before this date, and plan re-letting: a new lease needs a valid EPC that meets the MEES minimum at that date.',
        proposed: false,
        needsAction: true,
      });
    }
    if (lease.start && lease.start >= today) {
      out.push({
        ...base,
        id: `lease-start-${lease.id}-${lease.start}`,
        kind: 'lease-start',
        date: lease.start,
        title: `Lease starts: ${lease.tenant}`,
        action: 'Give the tenant the EPC and check it meets the MEES minimum before the lease is granted.',
        proposed: false,
        needsAction: true,
      });
    }
  }
  if (site.crremMisalignmentYear !== undefined) out.push(crremEvent(site, site.crremMisalignmentYear));
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}

/** The year a site's intensity crosses its CRREM pathway, as the benchmarks give it. */
export function crremEvent(site: Pick<SiteFacts, 'assetId' | 'siteName'>, year: number): CalendarEvent {
  return {
    assetId: site.assetId,
    siteName: site.siteName,
    id: `crrem-${site.assetId}-${year}`,
    kind: 'crrem-misalignment',
    date: `${year}-01-01`,
    title: `CRREM misalignment year ${year}`,
    action:
      "The site's intensity crosses its CRREM 1.5 °C pathway this year: plan retrofit measures before then to avoid stranding risk.",
    proposed: false,
    needsAction: true,
  };
}

/**
 * Events within a window of months from `today`, and any earlier one that still needs doing (an expired
 * EPC, a MEES minimum in force that the site fails).
 */
export function upcoming(events: readonly CalendarEvent[], today: string, months: number): CalendarEvent[] {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7)) - 1 + months;
  const until = `${y + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}${today.slice(7, 10)}`;
  return events
    .filter(
      (e) =>
        (e.date >= today && e.date <= until) || (e.date < today && e.needsAction && e.kind !== 'lease-end'),
    )
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}
