import type { UtilityType } from '../schemas/common.ts';
import { type CustomMeasure, type CustomSection, GROUPING_NAMES, MEASURE_NAMES } from './custom-templates.ts';
import {
  documentOf,
  ENERGY_UTILITIES,
  energyKwh,
  type MonthFigures,
  type PeriodFigures,
  periodLabel,
  type ReportBasics,
  type SiteFigures,
  UTILITY_NAMES,
  type UtilityFigure,
} from './report-builders.ts';
import {
  formatNumber,
  type ReportBlock,
  type ReportCell,
  type ReportColumn,
  type ReportDocument,
  type ReportTable,
} from './report-document.ts';

export interface CustomReportInput extends ReportBasics {
  name: string;
  description?: string;
  sections: readonly CustomSection[];
  current: PeriodFigures;
  previous: PeriodFigures;
  months: readonly MonthFigures[];
  /** Each site's figures, when a section is split by site. */
  sites?: readonly SiteFigures[];
  costsIncluded: boolean;
}

type Utilities = Partial<Record<UtilityType, UtilityFigure>>;

const UTILITY_ORDER: readonly UtilityType[] = [...ENERGY_UTILITIES, 'solar', 'water', 'waste'];
const PLACES: Readonly<Record<CustomMeasure, number>> = { energy: 0, consumption: 0, cost: 2, emissions: 2 };

/** A measure of a set of figures; consumption has no single figure (its utilities differ in unit). */
function measureOf(
  measure: Exclude<CustomMeasure, 'consumption'>,
  f: { utilities?: Utilities; energyKwh?: number; cost?: number; emissionsKg: number },
): number {
  if (measure === 'energy') return f.energyKwh ?? energyKwh(f.utilities ?? {});
  if (measure === 'cost') return f.cost ?? 0;
  return f.emissionsKg / 1000;
}

const change = (now: number, before: number): number | null =>
  before === 0 ? null : (now - before) / before;
const changeText = (c: number | null) =>
  c === null ? 'no figures before' : `${c > 0 ? '+' : ''}${formatNumber(c * 100, 1)}%`;

const num = (header: string, places: number): ReportColumn => ({ header, format: 'number', places });
const text = (header: string, width = 1.4): ReportColumn => ({ header, format: 'text', width });
const pct: ReportColumn = { header: 'Change', format: 'percent', places: 1, width: 0.8 };

/** A sheet name: unique in the workbook, at most 31 characters, none of the characters Excel refuses. */
function sheetName(title: string, taken: Set<string>): string {
  const base =
    title
      .replace(/[\\/?*[\]:]/g, ' ')
      .trim()
      .slice(0, 28) || 'Table';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 27)} ${n}`;
  taken.add(name.toLowerCase());
  return name;
}

function utilitiesIn(...sets: readonly Utilities[]): UtilityType[] {
  const seen = new Set<UtilityType>();
  for (const s of sets) for (const u of Object.keys(s) as UtilityType[]) seen.add(u);
  return UTILITY_ORDER.filter((u) => seen.has(u));
}

function figuresBlock(section: CustomSection, input: CustomReportInput): ReportBlock {
  const measure = section.measure ?? 'energy';
  if (measure === 'consumption')
    return {
      kind: 'figures',
      items: utilitiesIn(input.current.utilities).map((u) => {
        const f = input.current.utilities[u];
        return {
          label: UTILITY_NAMES[u],
          value: `${formatNumber(f?.consumption ?? 0)} ${f?.unit ?? ''}`.trim(),
        };
      }),
    };
  const now = measureOf(measure, input.current);
  const before = measureOf(measure, input.previous);
  const places = PLACES[measure];
  const name = MEASURE_NAMES[measure];
  return {
    kind: 'figures',
    items: [
      { label: name, value: formatNumber(now, places) },
      { label: `${name}, year before`, value: formatNumber(before, places) },
      { label: 'Year on year', value: changeText(change(now, before)) },
    ],
  };
}

/** A table of the section: its measure split as it asks, this period beside the year before where there is one. */
function tableOf(section: CustomSection, input: CustomReportInput, name: string): ReportTable {
  const measure = section.measure ?? 'energy';
  const grouping = section.grouping ?? 'month';
  const title = section.title;
  if (measure === 'consumption') {
    if (grouping === 'utility') {
      const rows = utilitiesIn(input.current.utilities, input.previous.utilities).map((u): ReportCell[] => {
        const now = input.current.utilities[u]?.consumption ?? 0;
        const before = input.previous.utilities[u]?.consumption ?? 0;
        const unit = input.current.utilities[u]?.unit ?? input.previous.utilities[u]?.unit ?? '';
        return [UTILITY_NAMES[u], unit, now, before, change(now, before)];
      });
      return {
        name,
        title,
        columns: [text('Utility'), text('Unit', 0.6), num('This period', 0), num('Year before', 0), pct],
        rows,
      };
    }
    const utilities = utilitiesIn(...input.months.map((m) => m.utilities));
    return {
      name,
      title,
      columns: [
        text('Month', 0.9),
        ...utilities.map((u) => {
          const unit = input.months.find((m) => m.utilities[u])?.utilities[u]?.unit ?? '';
          return num(`${UTILITY_NAMES[u]} (${unit})`, 0);
        }),
      ],
      rows: input.months.map((m) => [m.label, ...utilities.map((u) => m.utilities[u]?.consumption ?? 0)]),
    };
  }
  const places = PLACES[measure];
  const header = MEASURE_NAMES[measure];
  if (grouping === 'month') {
    const rows = input.months.map((m): ReportCell[] => [m.label, measureOf(measure, m)]);
    return {
      name,
      title,
      columns: [text('Month', 0.9), num(header, places)],
      rows,
      total: ['Total', measureOf(measure, input.current)],
    };
  }
  const pairs: { label: string; now: number; before: number }[] =
    grouping === 'utility'
      ? utilitiesIn(input.current.utilities, input.previous.utilities)
          .filter((u) => measure !== 'energy' || ENERGY_UTILITIES.includes(u))
          .map((u) => ({
            label: UTILITY_NAMES[u],
            now: measureOf(measure, utilityFigures(input.current.utilities, u)),
            before: measureOf(measure, utilityFigures(input.previous.utilities, u)),
          }))
      : (input.sites ?? []).map((s) => ({
          label: s.name,
          now: measureOf(measure, s.current),
          before: measureOf(measure, s.previous),
        }));
  const now = measureOf(measure, input.current);
  const before = measureOf(measure, input.previous);
  return {
    name,
    title,
    columns: [
      text(grouping === 'utility' ? 'Utility' : 'Site', grouping === 'site' ? 2 : 1.2),
      num(`${header}, this period`, places),
      num(`${header}, year before`, places),
      pct,
    ],
    rows: pairs.map((p) => [p.label, p.now, p.before, change(p.now, p.before)]),
    total: ['Total', now, before, change(now, before)],
  };
}

/** One utility's figures as a set of its own, so energy counts it only when it is in kWh. */
function utilityFigures(utilities: Utilities, u: UtilityType) {
  const f = utilities[u];
  return {
    utilities: f ? { [u]: f } : {},
    emissionsKg: f?.emissionsKg ?? 0,
    ...(f?.cost === undefined ? {} : { cost: f.cost }),
  };
}

/** A chart of the section, drawn from the same rows as its table would be. */
function chartBlock(section: CustomSection, input: CustomReportInput): ReportBlock {
  const table = tableOf(section, input, section.title);
  const measure = section.measure ?? 'energy';
  const monthly = (section.grouping ?? 'month') === 'month';
  return {
    kind: 'chart',
    chart: {
      title: section.title,
      unit: MEASURE_NAMES[measure],
      series: monthly ? ['This period'] : ['This period', 'Year before'],
      bars: table.rows.map((r) => ({
        label: String(r[0] ?? ''),
        values: (monthly ? [r[1]] : [r[1], r[2]]).map((v) => (typeof v === 'number' ? v : 0)),
      })),
    },
  };
}

/**
 * A company's own report: its sections in the order the template gives them, each figure from the
 * analytics answer for the scope and period, so the same figures give the same file.
 */
export function customReport(input: CustomReportInput): ReportDocument {
  const taken = new Set<string>();
  const sections = input.sections.map((section) => {
    if (section.kind === 'text')
      return { heading: section.title, blocks: [{ kind: 'paragraph' as const, text: section.text ?? '' }] };
    if (section.measure === 'cost' && !input.costsIncluded)
      return {
        heading: section.title,
        blocks: [{ kind: 'paragraph' as const, text: 'The company does not show cost figures.' }],
      };
    const about =
      section.kind === 'figures'
        ? `${MEASURE_NAMES[section.measure ?? 'energy']}, ${periodLabel(input.current)}.`
        : `${MEASURE_NAMES[section.measure ?? 'energy']}, ${GROUPING_NAMES[section.grouping ?? 'month'].toLowerCase()}.`;
    const blocks: ReportBlock[] = [{ kind: 'paragraph', text: about }];
    if (section.kind === 'figures') blocks.push(figuresBlock(section, input));
    else if (section.kind === 'chart') blocks.push(chartBlock(section, input));
    else blocks.push({ kind: 'table', table: tableOf(section, input, sheetName(section.title, taken)) });
    return { heading: section.title, blocks };
  });
  return documentOf(
    input,
    {
      title: input.name,
      subtitle: input.description || `A report for ${input.scopeName}`,
      periodLabel: periodLabel(input.current),
    },
    sections,
  );
}
