import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { SYSTEM_TEMPLATES } from '../../shared/reports/report-templates.ts';
import type { CustomTemplateView, PreviewDocument, ReportView } from '../../web/features/reports/api.ts';
import {
  DynamicResults,
  dynamicChoiceOf,
  dynamicTemplate,
} from '../../web/features/reports/dynamic-report-page.tsx';
import { ReportChartView } from '../../web/features/reports/report-chart-page.tsx';
import { ReportFileFrame, ReportFileView } from '../../web/features/reports/report-file-page.tsx';
import {
  ReportTemplatesPage,
  ReportTemplatesView,
  sectionsLine,
} from '../../web/features/reports/report-templates-page.tsx';
import { type Services, ServicesProvider, SessionProvider } from '../../web/lib/app-context.tsx';
import type { Session } from '../../web/lib/session.ts';
import { ASSET_ONLY, COMPANY_USER } from './access-fixtures.ts';
import { renderHtml, textOf } from './render.tsx';

const SERVICES = { api: {} } as unknown as Services;
const html = (node: React.ReactNode) =>
  renderHtml(
    <ServicesProvider services={SERVICES}>
      <MemoryRouter>{node}</MemoryRouter>
    </ServicesProvider>,
  );
const text = (node: React.ReactNode) => textOf(html(node));

const BOARD: CustomTemplateView = {
  _id: 't1',
  name: 'Board pack',
  scopeType: 'company',
  period: 'last-year',
  sections: [
    { kind: 'figures', title: 'Carbon', measure: 'emissions' },
    { kind: 'chart', title: 'Energy', measure: 'energy', grouping: 'month' },
  ],
};

describe('the report templates page', () => {
  const ready = { data: { data: [...SYSTEM_TEMPLATES] }, isLoading: false };
  it('lists the standard reports, each leading to the form with it chosen', () => {
    const page = html(
      <ReportTemplatesView system={ready} custom={{ data: { data: [BOARD] }, isLoading: false }} mayEdit />,
    );
    const shown = textOf(page);
    for (const t of SYSTEM_TEMPLATES) expect(shown).toContain(t.name);
    expect(page).toContain('href="/reports/generate?template=secr"');
    expect(shown).toContain('Board pack');
    expect(shown).toContain('Last calendar year');
  });

  it('says what each section of a company template shows', () => {
    expect(sectionsLine(BOARD)).toBe(
      'Carbon (Emissions (tCO2e, location-based)); Energy (Energy use (kWh), by month)',
    );
  });

  it('offers editing and new templates only to those who may write them', () => {
    const mayEdit = html(
      <ReportTemplatesView system={ready} custom={{ data: { data: [BOARD] }, isLoading: false }} mayEdit />,
    );
    expect(mayEdit).toContain('href="/reports/builder?template=t1"');
    expect(textOf(mayEdit)).toContain('New template');
    const readOnly = html(
      <ReportTemplatesView
        system={ready}
        custom={{ data: { data: [BOARD] }, isLoading: false }}
        mayEdit={false}
      />,
    );
    expect(readOnly).not.toContain('/reports/builder');
    // Generating stays: reading a template's report needs only read access.
    expect(textOf(readOnly)).toContain('Generate PDF');
  });

  it('shows its loading, error and empty states', () => {
    expect(
      html(<ReportTemplatesView system={{ isLoading: true }} custom={{ isLoading: true }} mayEdit />),
    ).toContain('role="status" aria-label="Loading…"');
    const failed = text(
      <ReportTemplatesView
        system={ready}
        custom={{ error: new Error('Service unavailable'), isLoading: false }}
        mayEdit
      />,
    );
    expect(failed).toContain("Your company's templates could not be loaded");
    expect(failed).toContain('Service unavailable');
    expect(
      text(<ReportTemplatesView system={ready} custom={{ data: { data: [] }, isLoading: false }} mayEdit />),
    ).toContain('No templates yet: build one with "New template".');
  });

  it('reads who may edit from the session', () => {
    const page = (access: Session['access']) =>
      html(
        <ServicesProvider services={{ api: {} } as unknown as Services}>
          <SessionProvider session={{ company: { _id: 'c1', settings: {} }, access } as unknown as Session}>
            <SWRConfig
              value={{
                fallback: {
                  '/report-templates/system': { data: SYSTEM_TEMPLATES },
                  '/report-templates?limit=100&$sort=-createdAt': { data: [BOARD], total: 1 },
                },
              }}
            >
              <ReportTemplatesPage />
            </SWRConfig>
          </SessionProvider>
        </ServicesProvider>,
      );
    expect(page(COMPANY_USER)).toContain('/reports/builder?template=t1');
    expect(page(ASSET_ONLY)).not.toContain('/reports/builder');
  });
});

const REPORT: ReportView = {
  _id: 'r1',
  name: 'SECR 2025',
  type: 'secr',
  status: 'queued',
  format: 'pdf',
  scopeType: 'company',
  startDate: '2025-01-01',
  endDate: '2025-12-31',
  requestedBy: 'u1',
  requestedByName: 'Olivia Owner',
  createdAt: '2026-01-05T10:00:00.000Z',
};
const noop = () => {};

describe("a report's own page", () => {
  const view = (report: ReportView, failure?: string) =>
    html(<ReportFileView report={report} onDownload={noop} onRetry={noop} failure={failure} />);

  it('follows the build: queued, then building with its progress, with no download before a file', () => {
    const queued = view(REPORT);
    expect(textOf(queued)).toContain('queued to be built');
    expect(textOf(queued)).not.toContain('Download');
    const building = view({ ...REPORT, status: 'generating', progress: 40 });
    expect(textOf(building)).toContain('Building the report');
    expect(building).toContain('aria-valuenow="40"');
  });

  it('offers the file once built, and a retry when the build failed', () => {
    const ready = textOf(view({ ...REPORT, status: 'ready', builtGeneration: 1, pages: 6 }));
    expect(ready).toContain('Download');
    expect(ready).toContain('6 pages');
    expect(ready).toContain('asked for by Olivia Owner');
    const failed = textOf(view({ ...REPORT, status: 'failed', error: 'No figures for the period' }));
    expect(failed).toContain('The report could not be built');
    expect(failed).toContain('No figures for the period');
    expect(failed).toContain('Try again');
    expect(textOf(view({ ...REPORT, status: 'ready', builtGeneration: 1 }, 'Link expired'))).toContain(
      'Link expired',
    );
  });

  it('says so when the report cannot be read, and links to its charts', () => {
    const page = html(
      <ReportFileFrame id="r1" query={{ error: new Error('Not found'), isLoading: false }}>
        {() => null}
      </ReportFileFrame>,
    );
    expect(textOf(page)).toContain('This report could not be loaded');
    expect(page).toContain('href="/reports/r1/chart"');
  });
});

const DOC: PreviewDocument = {
  title: 'Board pack',
  subtitle: 'The whole company',
  companyName: 'Demo Ltd',
  periodLabel: '2025',
  factorSets: ['DESNZ 2025'],
  dataDate: '2025-12-31',
  sections: [
    { heading: 'Carbon', blocks: [{ kind: 'figures', items: [{ label: 'Emissions', value: '12.50' }] }] },
    {
      heading: 'Energy by month',
      blocks: [
        {
          kind: 'chart',
          chart: {
            title: 'Energy use by month',
            unit: 'kWh',
            series: ['2025'],
            bars: [
              { label: 'Jan', values: [3000] },
              { label: 'Feb', values: [2500] },
            ],
          },
        },
      ],
    },
    {
      heading: 'Energy table',
      blocks: [
        {
          kind: 'table',
          table: {
            name: 'Energy',
            title: 'Energy',
            columns: [{ header: 'Month', format: 'text' }, { header: 'kWh' }],
            rows: [['Jan', 3000]],
          },
        },
      ],
    },
  ],
};
const answer = { document: DOC, startDate: '2025-01-01', endDate: '2025-12-31' };

describe("a report's charts page", () => {
  it("draws each chart under its section's heading, with the key figures and factor set", () => {
    const page = text(
      <ReportChartView
        id="r1"
        report={{ data: { name: 'Board pack 2025' }, isLoading: false }}
        content={{ data: answer, isLoading: false }}
      />,
    );
    expect(page).toContain('Board pack 2025: charts');
    expect(page).toContain('Energy by month');
    expect(page).toContain('Energy use by month');
    expect(page).toContain('Emissions 12.50');
    expect(page).toContain('factors: DESNZ 2025');
  });

  it('says when a report has no charts, is loading, or cannot be read', () => {
    const noCharts = { ...answer, document: { ...DOC, sections: [DOC.sections[0], DOC.sections[2]] } };
    expect(
      text(
        <ReportChartView
          id="r1"
          report={{ data: { name: 'x' }, isLoading: false }}
          content={{ data: noCharts as typeof answer, isLoading: false }}
        />,
      ),
    ).toContain('This report has no charts');
    expect(
      html(<ReportChartView id="r1" report={{ isLoading: true }} content={{ isLoading: true }} />),
    ).toContain('aria-label="Reading the report&#x27;s figures…"');
    const refused = text(
      <ReportChartView
        id="r1"
        report={{ error: new Error('You may not read this report'), isLoading: false }}
        content={{ isLoading: true }}
      />,
    );
    expect(refused).toContain('You may not read this report');
  });
});

describe('the figures explorer', () => {
  it('reads its choice from the address, and starts users of part of the company on a portfolio', () => {
    expect(dynamicChoiceOf(new URLSearchParams(), true)).toEqual({
      measure: 'energy',
      grouping: 'month',
      period: 'last-12-months',
      scopeType: 'company',
    });
    expect(
      dynamicChoiceOf(new URLSearchParams('measure=cost&grouping=site&scopeType=asset&scopeId=a1'), true),
    ).toMatchObject({ measure: 'cost', grouping: 'site', scopeType: 'asset', scopeId: 'a1' });
    expect(dynamicChoiceOf(new URLSearchParams('scopeType=company&measure=nonsense'), false)).toMatchObject({
      scopeType: 'portfolio',
      measure: 'energy',
    });
  });

  it("asks for the builder's own sections: key figures, a chart and a table of the choice", () => {
    const t = dynamicTemplate({
      measure: 'cost',
      grouping: 'utility',
      period: 'last-year',
      scopeType: 'portfolio',
      scopeId: 'p1',
    });
    expect(t.scopeId).toBe('p1');
    expect(t.sections.map((s) => [s.kind, s.measure, s.grouping])).toEqual([
      ['figures', 'cost', undefined],
      ['chart', 'cost', 'utility'],
      ['table', 'cost', 'utility'],
    ]);
  });

  it('shows the figures, or asks for a scope, or says there are none', () => {
    const shown = text(<DynamicResults query={{ data: answer, isLoading: false }} scopeMissing={false} />);
    expect(shown).toContain('Energy use by month');
    expect(shown).toContain('3,000');
    expect(text(<DynamicResults query={{ isLoading: true }} scopeMissing />)).toContain(
      'Choose a portfolio or a site.',
    );
    const none = {
      ...answer,
      document: {
        ...DOC,
        sections: [{ heading: 'T', blocks: [{ kind: 'table' as const, table: { ...tableOf(), rows: [] } }] }],
      },
    };
    expect(text(<DynamicResults query={{ data: none, isLoading: false }} scopeMissing={false} />)).toContain(
      'No figures for this scope and period.',
    );
    expect(
      text(
        <DynamicResults query={{ error: new Error('Bad gateway'), isLoading: false }} scopeMissing={false} />,
      ),
    ).toContain('These figures could not be read');
  });
});

function tableOf() {
  const block = DOC.sections[2]?.blocks[0];
  if (block?.kind !== 'table') throw new Error('the fixture has a table');
  return block.table;
}
