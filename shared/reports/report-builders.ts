import type { UtilityType } from '../schemas/common.ts';
import { MONTH_NAMES } from './calendar-names.ts';
import {
  formatNumber,
  type ReportCell,
  type ReportDocument,
  type ReportSection,
  type ReportTable,
} from './report-document.ts';
import { INTENSITY_UNITS, type IntensityMetric } from './report-templates.ts';

/** The utilities whose use counts as energy, in kWh. */
export const ENERGY_UTILITIES: readonly UtilityType[] = ['electricity', 'gas', 'heating', 'cooling'];

export const UTILITY_NAMES: Readonly<Record<UtilityType, string>> = {
  electricity: 'Electricity',
  gas: 'Gas',
  water: 'Water',
  waste: 'Waste',
  heating: 'Heating',
  cooling: 'Cooling',
  solar: 'Solar',
};

export interface UtilityFigure {
  consumption: number;
  unit: string;
  cost?: number;
  emissionsKg: number;
}

/** A scope's figures over one window, as the analytics answer them. */
export interface PeriodFigures {
  start: string;
  end: string;
  utilities: Partial<Record<UtilityType, UtilityFigure>>;
  cost?: number;
  emissionsKg: number;
  scope1Kg: number;
  scope2LocationKg: number;
  scope2MarketKg: number;
  scope3Kg: number;
}

export interface SiteFigures {
  id: string;
  name: string;
  current: { energyKwh: number; emissionsKg: number; cost?: number };
  previous: { energyKwh: number; emissionsKg: number; cost?: number };
}

export interface MonthFigures {
  /** The calendar's period, e.g. 2025-03 or FY2025-P01, and its name. */
  month: string;
  label: string;
  utilities: Partial<Record<UtilityType, UtilityFigure>>;
  emissionsKg: number;
  cost?: number;
}

export interface ReportBasics {
  companyName: string;
  scopeName: string;
  dataDate: Date;
  logoPng?: Uint8Array;
  factorSets: readonly string[];
}

/** What sets one report apart on its cover; whose it is, when and how it was worked out come from `basics`. */
export interface DocumentHead {
  title: string;
  subtitle: string;
  periodLabel: string;
}

/** A report document: its own head and sections under the cover every report shares. */
export function documentOf(
  basics: ReportBasics,
  head: DocumentHead,
  sections: readonly ReportSection[],
): ReportDocument {
  return {
    title: head.title,
    subtitle: head.subtitle,
    companyName: basics.companyName,
    periodLabel: head.periodLabel,
    factorSets: basics.factorSets,
    dataDate: basics.dataDate,
    ...(basics.logoPng ? { logoPng: basics.logoPng } : {}),
    sections,
  };
}

export interface SecrInput extends ReportBasics {
  current: PeriodFigures;
  previous: PeriodFigures;
  intensity?: { metric: IntensityMetric; value: number; previousValue?: number };
}

export interface SummaryInput extends ReportBasics {
  current: PeriodFigures;
  previous: PeriodFigures;
  sites?: readonly SiteFigures[];
  months: readonly MonthFigures[];
  costsIncluded: boolean;
}

/** 2025-01-31 → 31 January 2025 */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTH_NAMES[m - 1]} ${y}`;
}

export const periodLabel = (p: { start: string; end: string }) =>
  `${longDate(p.start)} to ${longDate(p.end)}`;
const shortPeriod = (p: { start: string; end: string }) =>
  p.start.slice(0, 4) === p.end.slice(0, 4) && p.start.endsWith('-01-01') && p.end.endsWith('-12-31')
    ? p.start.slice(0, 4)
    : `${p.start} – ${p.end}`;

/** kWh of the energy utilities; a utility recorded in another unit is left out rather than mixed in. */
export function energyKwh(utilities: Partial<Record<UtilityType, UtilityFigure>>): number {
  let sum = 0;
  for (const u of ENERGY_UTILITIES) {
    const f = utilities[u];
    if (f && f.unit === 'kWh') sum += f.consumption;
  }
  return sum;
}

const tonnes = (kg: number) => kg / 1000;
/** The change from `before` to `now` as a fraction; null when there was nothing before. */
const change = (now: number, before: number): number | null =>
  before === 0 ? null : (now - before) / before;

const num = (header: string, places = 0, width = 1) => ({ header, format: 'number' as const, places, width });
const pct = (header: string) => ({ header, format: 'percent' as const, places: 1, width: 0.8 });
const text = (header: string, width = 1) => ({ header, format: 'text' as const, width });

/** The utilities a scope has figures for, energy first. */
function utilitiesOf(...periods: readonly { utilities: Partial<Record<UtilityType, UtilityFigure>> }[]) {
  const seen = new Set<UtilityType>();
  for (const p of periods) for (const u of Object.keys(p.utilities) as UtilityType[]) seen.add(u);
  const order: UtilityType[] = [...ENERGY_UTILITIES, 'solar', 'water', 'waste'];
  return order.filter((u) => seen.has(u));
}

function energyTable(current: PeriodFigures, previous: PeriodFigures): ReportTable {
  const rows: ReportCell[][] = [];
  for (const u of ENERGY_UTILITIES) {
    const now = current.utilities[u];
    const before = previous.utilities[u];
    if (!now && !before) continue;
    const a = now?.unit === 'kWh' ? now.consumption : 0;
    const b = before?.unit === 'kWh' ? before.consumption : 0;
    rows.push([UTILITY_NAMES[u], a, b, change(a, b)]);
  }
  const a = energyKwh(current.utilities);
  const b = energyKwh(previous.utilities);
  return {
    name: 'Energy use',
    title: 'UK energy use (kWh)',
    columns: [text('Source', 1.6), num(shortPeriod(current)), num(shortPeriod(previous)), pct('Change')],
    rows,
    total: ['Total energy use', a, b, change(a, b)],
  };
}

function emissionsTable(current: PeriodFigures, previous: PeriodFigures): ReportTable {
  const row = (label: string, now: number, before: number): ReportCell[] => [
    label,
    tonnes(now),
    tonnes(before),
    change(now, before),
  ];
  return {
    name: 'Emissions',
    title: 'Greenhouse gas emissions (tCO2e)',
    columns: [text('Scope', 1.8), num(shortPeriod(current), 2), num(shortPeriod(previous), 2), pct('Change')],
    rows: [
      row('Scope 1 (direct: fuels burnt on site)', current.scope1Kg, previous.scope1Kg),
      row('Scope 2, location-based (grid average)', current.scope2LocationKg, previous.scope2LocationKg),
      row('Scope 2, market-based (contracts)', current.scope2MarketKg, previous.scope2MarketKg),
      row(
        'Scopes 1 and 2, location-based',
        current.scope1Kg + current.scope2LocationKg,
        previous.scope1Kg + previous.scope2LocationKg,
      ),
      row(
        'Scopes 1 and 2, market-based',
        current.scope1Kg + current.scope2MarketKg,
        previous.scope1Kg + previous.scope2MarketKg,
      ),
    ],
  };
}

/**
 * Streamlined Energy and Carbon Reporting: energy use, scope 1 and 2 (location-based with market-based
 * beside it), the intensity ratio asked for, this period against the one before, the factor sets used and
 * how the figures were made.
 */
export function secrReport(input: SecrInput): ReportDocument {
  const { current, previous } = input;
  const s12Location = current.scope1Kg + current.scope2LocationKg;
  const s12Market = current.scope1Kg + current.scope2MarketKg;
  const figures = [
    { label: 'UK energy use', value: `${formatNumber(energyKwh(current.utilities))} kWh` },
    { label: 'Scope 1', value: `${formatNumber(tonnes(current.scope1Kg), 2)} tCO2e` },
    {
      label: 'Scope 2 (location-based)',
      value: `${formatNumber(tonnes(current.scope2LocationKg), 2)} tCO2e`,
    },
    { label: 'Scope 2 (market-based)', value: `${formatNumber(tonnes(current.scope2MarketKg), 2)} tCO2e` },
    { label: 'Scopes 1 and 2 (location-based)', value: `${formatNumber(tonnes(s12Location), 2)} tCO2e` },
    { label: 'Scopes 1 and 2 (market-based)', value: `${formatNumber(tonnes(s12Market), 2)} tCO2e` },
  ];
  const sections: ReportSection[] = [];
  const tables: ReportSection['blocks'][number][] = [
    { kind: 'table', table: energyTable(current, previous) },
    { kind: 'table', table: emissionsTable(current, previous) },
  ];
  const intensity = input.intensity;
  if (intensity) {
    const unit = INTENSITY_UNITS[intensity.metric];
    const prevS12L = previous.scope1Kg + previous.scope2LocationKg;
    const prevS12M = previous.scope1Kg + previous.scope2MarketKg;
    const ratio = (kg: number, by: number | undefined) => (by ? tonnes(kg) / by : null);
    tables.push({
      kind: 'table',
      table: {
        name: 'Intensity',
        title: `Intensity ratio (tCO2e per ${unit})`,
        columns: [
          text('Measure', 1.8),
          num(shortPeriod(current), 4),
          num(shortPeriod(previous), 4),
          pct('Change'),
        ],
        rows: [
          [`Per ${unit}: the figure divided by`, intensity.value, intensity.previousValue ?? null, null],
          [
            'Scopes 1 and 2, location-based',
            ratio(s12Location, intensity.value),
            ratio(prevS12L, intensity.previousValue),
            intensity.previousValue
              ? change(tonnes(s12Location) / intensity.value, tonnes(prevS12L) / intensity.previousValue)
              : null,
          ],
          [
            'Scopes 1 and 2, market-based',
            ratio(s12Market, intensity.value),
            ratio(prevS12M, intensity.previousValue),
            intensity.previousValue
              ? change(tonnes(s12Market) / intensity.value, tonnes(prevS12M) / intensity.previousValue)
              : null,
          ],
        ],
      },
    });
    figures.push({
      label: `Intensity (location-based, per ${unit})`,
      value: `${formatNumber(tonnes(s12Location) / intensity.value, 4)} tCO2e`,
    });
  }
  sections.push({
    heading: 'Summary',
    blocks: [
      {
        kind: 'paragraph',
        text: `${input.companyName}: energy use and greenhouse gas emissions of ${input.scopeName} for ${periodLabel(current)}, with ${periodLabel(previous)} beside them.`,
      },
      { kind: 'figures', items: figures },
      {
        kind: 'chart',
        chart: {
          title: 'Energy use by source (kWh)',
          unit: 'kWh',
          series: [shortPeriod(current), shortPeriod(previous)],
          bars: ENERGY_UTILITIES.filter((u) => current.utilities[u] || previous.utilities[u]).map((u) => ({
            label: UTILITY_NAMES[u],
            values: [current.utilities[u]?.consumption ?? 0, previous.utilities[u]?.consumption ?? 0],
          })),
        },
      },
    ],
  });
  sections.push({ heading: 'Energy use and emissions', blocks: tables });
  sections.push({
    heading: 'Methodology',
    blocks: [
      {
        kind: 'paragraph',
        text: 'Emissions are reported in tonnes of carbon dioxide equivalent (tCO2e) following the Greenhouse Gas Protocol Corporate Standard and the UK Government Environmental Reporting Guidelines, covering the sites in the scope of this report.',
      },
      {
        kind: 'paragraph',
        text: `Energy use and emissions are worked out from the metered and billed consumption of each meter, month by month; a month a bill covers in part takes its share by days. Emission factors: ${input.factorSets.length > 0 ? input.factorSets.join(', ') : 'none recorded for this period'}.`,
      },
      {
        kind: 'paragraph',
        text: 'Scope 1 covers fuels burnt on site (gas and other fuels). Scope 2 covers purchased electricity, heat and cooling: location-based with the grid-average factor, and market-based with the factors of the supply contracts (renewable supply backed by REGO certificates at zero, otherwise the residual mix).',
      },
      ...(intensity
        ? [
            {
              kind: 'paragraph' as const,
              text: `The intensity ratio divides scope 1 and 2 emissions by ${INTENSITY_UNITS[intensity.metric]} figures given when the report was asked for: ${formatNumber(intensity.value, 2)} this period${intensity.previousValue ? ` and ${formatNumber(intensity.previousValue, 2)} the period before` : ''}.`,
            },
          ]
        : []),
    ],
  });
  return documentOf(
    input,
    {
      title: 'Streamlined Energy and Carbon Reporting',
      subtitle: `SECR disclosure for ${input.scopeName}`,
      periodLabel: periodLabel(current),
    },
    sections,
  );
}

function utilityTable(input: SummaryInput): ReportTable {
  const { current, previous } = input;
  const rows = utilitiesOf(current, previous).map((u): ReportCell[] => {
    const now = current.utilities[u];
    const before = previous.utilities[u];
    return [
      UTILITY_NAMES[u],
      now?.unit ?? before?.unit ?? '',
      now?.consumption ?? 0,
      before?.consumption ?? 0,
      change(now?.consumption ?? 0, before?.consumption ?? 0),
      tonnes(now?.emissionsKg ?? 0),
      ...(input.costsIncluded ? [now?.cost ?? 0] : []),
    ];
  });
  return {
    name: 'By utility',
    title: 'By utility',
    columns: [
      text('Utility', 1.2),
      text('Unit', 0.6),
      num(shortPeriod(current)),
      num(shortPeriod(previous)),
      pct('Change'),
      num('tCO2e', 2),
      ...(input.costsIncluded ? [num('Cost (£)')] : []),
    ],
    rows,
    total: [
      'All utilities',
      '',
      null,
      null,
      null,
      tonnes(current.emissionsKg),
      ...(input.costsIncluded ? [current.cost ?? 0] : []),
    ],
  };
}

function monthTable(input: SummaryInput): ReportTable {
  const utilities = utilitiesOf(...input.months);
  return {
    name: 'By month',
    title: 'By month',
    columns: [
      text('Month', 0.9),
      ...utilities.map((u) =>
        num(`${UTILITY_NAMES[u]} (${input.months.find((m) => m.utilities[u])?.utilities[u]?.unit ?? ''})`),
      ),
      num('tCO2e', 2),
      ...(input.costsIncluded ? [num('Cost (£)')] : []),
    ],
    rows: input.months.map((m) => [
      m.label,
      ...utilities.map((u) => m.utilities[u]?.consumption ?? 0),
      tonnes(m.emissionsKg),
      ...(input.costsIncluded ? [m.cost ?? 0] : []),
    ]),
  };
}

const siteRow = (s: SiteFigures, costs: boolean): ReportCell[] => [
  s.name,
  s.current.energyKwh,
  s.previous.energyKwh,
  tonnes(s.current.emissionsKg),
  tonnes(s.previous.emissionsKg),
  change(s.current.emissionsKg, s.previous.emissionsKg),
  ...(costs ? [s.current.cost ?? 0] : []),
];

function siteColumns(input: SummaryInput) {
  return [
    text('Site', 2.2),
    num(`kWh ${shortPeriod(input.current)}`),
    num(`kWh ${shortPeriod(input.previous)}`),
    num(`tCO2e ${shortPeriod(input.current)}`, 2),
    num(`tCO2e ${shortPeriod(input.previous)}`, 2),
    pct('Change'),
    ...(input.costsIncluded ? [num('Cost (£)')] : []),
  ];
}

/**
 * The energy and carbon summary of a company, portfolio or site: key figures against the year before, a
 * chart and a table by month, the utilities, and for more than one site the top movers and every site.
 */
export function summaryReport(input: SummaryInput, kind: 'portfolio' | 'site'): ReportDocument {
  const { current, previous } = input;
  const kwh = energyKwh(current.utilities);
  const kwhBefore = energyKwh(previous.utilities);
  const yoy = change(current.emissionsKg, previous.emissionsKg);
  const figures = [
    { label: 'Energy use', value: `${formatNumber(kwh)} kWh` },
    { label: 'Energy use, year before', value: `${formatNumber(kwhBefore)} kWh` },
    { label: 'Emissions (location-based)', value: `${formatNumber(tonnes(current.emissionsKg), 2)} tCO2e` },
    { label: 'Emissions, year before', value: `${formatNumber(tonnes(previous.emissionsKg), 2)} tCO2e` },
    {
      label: 'Emissions, year on year',
      value: yoy === null ? 'no figures before' : `${yoy > 0 ? '+' : ''}${formatNumber(yoy * 100, 1)}%`,
    },
    ...(input.costsIncluded ? [{ label: 'Cost', value: `£${formatNumber(current.cost ?? 0)}` }] : []),
  ];
  const energyInMonths = ENERGY_UTILITIES.filter((u) => input.months.some((m) => m.utilities[u]));
  const sections: ReportSection[] = [
    {
      heading: 'Summary',
      blocks: [
        {
          kind: 'paragraph',
          text: `${input.scopeName}: ${periodLabel(current)}, against ${periodLabel(previous)}.`,
        },
        { kind: 'figures', items: figures },
        {
          kind: 'chart',
          chart: {
            title: 'Energy use by month (kWh)',
            unit: 'kWh',
            series: energyInMonths.map((u) => UTILITY_NAMES[u]),
            bars: input.months.map((m) => ({
              label: m.label,
              values: energyInMonths.map((u) =>
                m.utilities[u]?.unit === 'kWh' ? (m.utilities[u]?.consumption ?? 0) : 0,
              ),
            })),
          },
        },
        { kind: 'table', table: utilityTable(input) },
      ],
    },
    { heading: 'Month by month', blocks: [{ kind: 'table', table: monthTable(input) }] },
  ];
  const sites = input.sites ?? [];
  if (kind === 'portfolio' && sites.length > 0) {
    const movers = [...sites]
      .map((s) => ({ s, delta: s.current.emissionsKg - s.previous.emissionsKg }))
      .filter((m) => m.delta !== 0)
      .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.s.name.localeCompare(b.s.name))
      .slice(0, 10);
    sections.push({
      heading: 'Top movers',
      blocks: [
        {
          kind: 'paragraph',
          text: 'The sites whose emissions changed most against the year before, up or down.',
        },
        {
          kind: 'table',
          table: {
            name: 'Top movers',
            title: 'Top movers',
            columns: [...siteColumns(input), num('Change (tCO2e)', 2)],
            rows: movers.map((m) => [...siteRow(m.s, input.costsIncluded), tonnes(m.delta)]),
          },
        },
      ],
    });
    sections.push({
      heading: 'Sites',
      blocks: [
        {
          kind: 'table',
          table: {
            name: 'Sites',
            title: 'Every site',
            columns: siteColumns(input),
            rows: [...sites]
              .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
              .map((s) => siteRow(s, input.costsIncluded)),
          },
        },
      ],
    });
  }
  return documentOf(
    input,
    {
      title: kind === 'site' ? 'Site report' : 'Energy and carbon summary',
      subtitle: input.scopeName,
      periodLabel: periodLabel(current),
    },
    sections,
  );
}

export interface CoverageMeter {
  site: string;
  meter: string;
  utilityType: UtilityType;
  months: number;
  missing: readonly string[];
  estimated: readonly string[];
}

export interface CoverageInput extends ReportBasics {
  period: { start: string; end: string };
  meters: readonly CoverageMeter[];
}

/** Runs of consecutive months as ranges: 2025-01, 2025-02, 2025-03, 2025-06 → 2025-01–2025-03, 2025-06. */
export function monthRanges(months: readonly string[]): string {
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  const runs: string[] = [];
  let start = months[0];
  let last = months[0];
  for (const month of months.slice(1)) {
    if (last && index(month) === index(last) + 1) last = month;
    else {
      if (start && last) runs.push(start === last ? start : `${start}–${last}`);
      start = month;
      last = month;
    }
  }
  if (start && last) runs.push(start === last ? start : `${start}–${last}`);
  return runs.join(', ');
}

/** The meters whose months lack figures or hold only estimates, worst first, with how many are whole. */
export function coverageReport(input: CoverageInput): ReportDocument {
  const gaps = input.meters
    .filter((m) => m.missing.length > 0 || m.estimated.length > 0)
    .sort(
      (a, b) =>
        b.missing.length - a.missing.length ||
        b.estimated.length - a.estimated.length ||
        a.site.localeCompare(b.site) ||
        a.meter.localeCompare(b.meter),
    );
  const monthsTotal = input.meters.reduce((s, m) => s + m.months, 0);
  const missing = input.meters.reduce((s, m) => s + m.missing.length, 0);
  const estimated = input.meters.reduce((s, m) => s + m.estimated.length, 0);
  return documentOf(
    input,
    { title: 'Data coverage', subtitle: input.scopeName, periodLabel: periodLabel(input.period) },
    [
      {
        heading: 'Summary',
        blocks: [
          {
            kind: 'paragraph',
            text: `The months of ${periodLabel(input.period)} each meter of ${input.scopeName} has no figures for, or only an estimate where a bill has not come.`,
          },
          {
            kind: 'figures',
            items: [
              { label: 'Meters checked', value: formatNumber(input.meters.length) },
              {
                label: 'Meters with every month billed',
                value: formatNumber(input.meters.length - gaps.length),
              },
              { label: 'Meters with gaps or estimates', value: formatNumber(gaps.length) },
              { label: 'Meter months missing', value: formatNumber(missing) },
              { label: 'Meter months estimated', value: formatNumber(estimated) },
              {
                label: 'Meter months billed',
                value:
                  monthsTotal === 0
                    ? 'none'
                    : `${formatNumber(((monthsTotal - missing - estimated) / monthsTotal) * 100, 1)}%`,
              },
            ],
          },
        ],
      },
      {
        heading: 'Meters with missing or estimated months',
        blocks: [
          {
            kind: 'table',
            table: {
              name: 'Coverage',
              title: 'Meters with missing or estimated months',
              columns: [
                text('Site', 1.5),
                text('Meter', 1.5),
                text('Utility', 0.8),
                num('Missing', 0, 0.6),
                num('Estimated', 0, 0.7),
                text('Months missing', 1.8),
                text('Months estimated', 1.8),
              ],
              rows: gaps.map((m) => [
                m.site,
                m.meter,
                UTILITY_NAMES[m.utilityType],
                m.missing.length,
                m.estimated.length,
                monthRanges(m.missing),
                monthRanges(m.estimated),
              ]),
            },
          },
        ],
      },
    ],
  );
}
