export const REPORT_FORMATS = ['pdf', 'xlsx', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_SCOPES = ['company', 'portfolio', 'asset'] as const;
export type ReportScopeType = (typeof REPORT_SCOPES)[number];

export const INTENSITY_METRICS = ['floor-area', 'turnover', 'employees'] as const;
export type IntensityMetric = (typeof INTENSITY_METRICS)[number];

/** What an intensity ratio divides by, as its unit is written. */
export const INTENSITY_UNITS: Readonly<Record<IntensityMetric, string>> = {
  'floor-area': 'm²',
  turnover: '£m turnover',
  employees: 'employee',
};

export const REPORT_STATUSES = ['queued', 'generating', 'ready', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface SystemTemplate {
  id: SystemTemplateId;
  name: string;
  description: string;
  /** The scopes it can be run for. */
  scopes: readonly ReportScopeType[];
  /** Whether the form asks for an intensity ratio. */
  intensity: boolean;
}

export const SYSTEM_TEMPLATE_IDS = [
  'secr',
  'portfolio-summary',
  'site',
  'bill-validation',
  'data-coverage',
] as const;
export type SystemTemplateId = (typeof SYSTEM_TEMPLATE_IDS)[number];

/** What a report is built from: a system template, or a company's own (`custom`, naming it). */
export const REPORT_TYPES = [...SYSTEM_TEMPLATE_IDS, 'custom'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The reports every company has (GET /report-templates/system). */
export const SYSTEM_TEMPLATES: readonly SystemTemplate[] = [
  {
    id: 'secr',
    name: 'SECR',
    description:
      'Streamlined Energy and Carbon Reporting: UK energy use in kWh, scope 1 and 2 emissions (location- and market-based), an intensity ratio, the previous year beside this one, the factor set and a methodology statement.',
    scopes: ['company', 'portfolio'],
    intensity: true,
  },
  {
    id: 'portfolio-summary',
    name: 'Portfolio energy and carbon summary',
    description:
      'Energy, emissions and cost by utility and by site, the year-on-year change and the top movers.',
    scopes: ['company', 'portfolio'],
    intensity: false,
  },
  {
    id: 'site',
    name: 'Site report',
    description: "One site's energy, emissions and cost month by month, by utility, against the year before.",
    scopes: ['asset'],
    intensity: false,
  },
  {
    id: 'bill-validation',
    name: 'Bill validation',
    description:
      'The bills checked in the period: pass and fail counts by check, the failed bills with their failed checks and the money at stake, by site.',
    scopes: ['company', 'portfolio', 'asset'],
    intensity: false,
  },
  {
    id: 'data-coverage',
    name: 'Data coverage',
    description: 'The meters with months that have no figures, or only estimated ones, in the period.',
    scopes: ['company', 'portfolio', 'asset'],
    intensity: false,
  },
];

export const templateOf = (id: string): SystemTemplate | undefined =>
  SYSTEM_TEMPLATES.find((t) => t.id === id);

/** The file name a report downloads as. */
export function reportFileName(name: string, format: ReportFormat): string {
  const base =
    name
      .replace(/[^A-Za-z0-9 ._-]+/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'report';
  return `${base.slice(0, 120)}.${format}`;
}

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};
