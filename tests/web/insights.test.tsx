import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { UTILITY_TYPES } from '../../shared/schemas/common.ts';
import { BarChart } from '../../web/components/charts/bar-chart.tsx';
import { waterfallBars } from '../../web/components/charts/waterfall-chart.tsx';
import type { BucketFigures, Totals } from '../../web/features/analytics/analytics-answer.ts';
import { analyticsKeys, fetchLatest } from '../../web/features/analytics/api.ts';
import {
  EmissionsChangePanel,
  emissionsChangeSteps,
} from '../../web/features/analytics/emissions-change.tsx';
import { FACTOR_SETS_KEY } from '../../web/features/analytics/factor-set-api.ts';
import { FactorSetPanel, restatementText } from '../../web/features/analytics/factor-set-panel.tsx';
import {
  changeOf,
  changeText,
  drillOfBar,
  figureText,
  seriesBySite,
  seriesByUtility,
  siteRows,
  totalCards,
} from '../../web/features/analytics/insights-figures.ts';
import {
  analyticsQuery,
  defaultFilters,
  filtersFromQuery,
  queryOfFilters,
  UTILITIES,
} from '../../web/features/analytics/insights-filters.ts';
import { CostsPage } from '../../web/features/analytics/insights-page.tsx';
import { createLatestRequests, isAbort } from '../../web/features/analytics/latest-request.ts';
import { ScopeThreeGaps } from '../../web/features/analytics/scope-three-gaps.tsx';
import type { ApiClient, RequestOptions } from '../../web/lib/api-client.ts';
import { type Services, ServicesProvider, SessionProvider } from '../../web/lib/app-context.tsx';
import { isStaleKey } from '../../web/lib/live.ts';
import type { Session } from '../../web/lib/session.ts';
import { COMPANY_USER, OWNER } from './access-fixtures.ts';
import { renderHtml, textOf } from './render.tsx';

const NOW = new Date(2026, 10, 26);

/** Two months of two utilities; February's electricity has 200 kWh of an estimated month in it. */
const jan: BucketFigures = {
  key: '2025-01',
  label: 'Jan 2025',
  start: '2025-01-01',
  end: '2025-01-31',
  utilities: {
    electricity: { consumption: 3000, unit: 'kWh', cost: 750, emissionsKg: 621 },
    gas: { consumption: 5000, unit: 'kWh', cost: 400, emissionsKg: 915 },
    water: { consumption: 40, unit: 'm³', cost: 80, emissionsKg: 6 },
  },
  cost: 1230,
  emissionsKg: 1542,
};
const feb: BucketFigures = {
  key: '2025-02',
  label: 'Feb 2025',
  start: '2025-02-01',
  end: '2025-02-28',
  utilities: {
    electricity: {
      consumption: 800,
      unit: 'kWh',
      cost: 200,
      emissionsKg: 165.6,
      estimated: { consumption: 200, cost: 50, emissionsKg: 41.4 },
    },
  },
  cost: 200,
  emissionsKg: 165.6,
};

describe('the filters in the URL', () => {
  it('default to the last twelve whole months, monthly, against the year before, for the company', () => {
    expect(filtersFromQuery(new URLSearchParams(), NOW)).toEqual({
      start: '2025-11-01',
      end: '2026-10-31',
      granularity: 'monthly',
      compare: 'year',
      basis: 'location',
      scope: 'company',
      breakdown: 'utility',
    });
    expect(queryOfFilters(defaultFilters(NOW), NOW).toString()).toBe('');
  });

  it('offer every utility type the service knows', () => {
    expect(UTILITIES).toEqual(UTILITY_TYPES);
  });

  it('read back what they wrote, and ignore what is malformed', () => {
    const view = {
      ...defaultFilters(NOW),
      start: '2025-01-01',
      end: '2025-03-31',
      granularity: 'quarterly' as const,
      utility: 'gas' as const,
      compare: 'period' as const,
      scope: 'portfolio' as const,
      scopeId: 'abc123',
      breakdown: 'site' as const,
    };
    const query = queryOfFilters(view, NOW);
    expect(filtersFromQuery(new URLSearchParams(query.toString()), NOW)).toEqual(view);
    const bad = filtersFromQuery(
      new URLSearchParams('from=2025-05-01&to=2025-01-01&granularity=hourly&utility=steam&scope=site'),
      NOW,
    );
    expect(bad).toEqual(defaultFilters(NOW));
  });

  it('ask the analytics service for the page measure, the scope and the estimated parts', () => {
    const f = { ...defaultFilters(NOW), utility: 'gas' as const, scope: 'portfolio' as const, scopeId: 'g1' };
    expect(analyticsQuery(f, 'costs', { withCosts: true })).toEqual({
      startDate: '2025-11-01',
      endDate: '2026-10-31',
      granularity: 'monthly',
      dataType: 'cost',
      comparePeriod: 'year',
      estimateBreakdown: 'true',
      includeCosts: 'true',
      dateBreakdown: 'true',
      accountType: 'gas',
      assetGroupId: 'g1',
    });
    const site = analyticsQuery({ ...f, scope: 'site', scopeId: 's1' }, 'emissions', { withCosts: false });
    expect(site).toMatchObject({
      assetId: 's1',
      dataType: 'emissions',
      emissions: 'location',
      includeCosts: 'false',
    });
    expect(site.assetGroupId).toBeUndefined();
    // An entity is one call: the service adds up its sites and those of the entities below it.
    const entity = analyticsQuery({ ...f, scope: 'entity', scopeId: 'e1', basis: 'market' }, 'emissions', {
      withCosts: false,
    });
    expect(entity).toMatchObject({ entityId: 'e1', emissions: 'market' });
    expect(entity.assetId ?? entity.assetGroupId).toBeUndefined();
  });
});

describe('the change against the comparison period', () => {
  it('gives the direction and the percentage, rounded to a tenth', () => {
    expect(changeOf(110, 100)).toEqual({ direction: 'up', percent: 10 });
    expect(changeOf(2012.1, 2633.1)).toEqual({ direction: 'down', percent: -23.6 });
    expect(changeOf(5, 5)).toEqual({ direction: 'flat', percent: 0 });
    expect(changeOf(5, 0)).toEqual({ direction: 'up', percent: null });
    expect(changeOf(5, undefined)).toBeUndefined();
    expect(changeText({ direction: 'down', percent: -23.6 })).toBe('▼ 23.6%');
    expect(changeText({ direction: 'up', percent: null })).toBe('▲ new');
  });
});

describe('the total cards', () => {
  const totals: Totals = { utilities: jan.utilities, cost: 1230, emissionsKg: 1542 };
  const before: Totals = {
    utilities: { electricity: { consumption: 900, unit: 'kWh', cost: 180, emissionsKg: 180 } },
    cost: 180,
    emissionsKg: 180,
  };

  it('split emissions by scope, each with last period to compare', () => {
    const cards = totalCards('emissions', totals, before);
    expect(cards.map((c) => [c.label, c.value, c.previous])).toEqual([
      ['Total emissions', 1542, 180],
      ['Scope 1 (gas and fuels)', 915, 0],
      ['Scope 2 (electricity, heat, cooling)', 621, 180],
      ['Scope 3 (water, waste)', 6, 0],
    ]);
    expect(figureText(1542, 'kg CO₂e')).toBe('1.54 t CO₂e');
    expect(figureText(621, 'kg CO₂e')).toBe('621 kg CO₂e');
  });

  it('take the scopes from the service, scope 2 by the chosen basis, with last period to compare', () => {
    const round2 = (v: number) => Math.round(v * 100) / 100;
    const split = (scope1: number, location: number, market: number, scope3: number) => ({
      scope1,
      scope2Location: location,
      scope2Market: market,
      scope3,
      scope3Parts: { transmissionDistribution: scope3, water: 0, waste: 0, wellToTank: 0 },
      totalLocation: scope1 + location + scope3,
      totalMarket: scope1 + market + scope3,
      factorSets: { scope1: [], scope2Location: [], scope2Market: [], scope3: [] },
      notCovered: [],
    });
    const now = split(911.55, 531, 354, 55.59);
    const previous = split(0, 180, 180, 16);
    const market = totalCards('emissions', totals, before, undefined, { basis: 'market', now, previous });
    expect(market.map((c) => [c.label, round2(c.value), c.previous])).toEqual([
      ['Total emissions', 1321.14, 196],
      ['Scope 1 (gas and fuels)', 911.55, 0],
      ['Scope 2 (electricity, heat, cooling), market-based', 354, 180],
      ['Scope 3 (T&D losses, well-to-tank, water, waste)', 55.59, 16],
    ]);
    const location = totalCards('emissions', totals, undefined, undefined, { basis: 'location', now });
    expect(location.map((c) => [c.label, round2(c.value)])).toEqual([
      ['Total emissions', 1498.14],
      ['Scope 1 (gas and fuels)', 911.55],
      ['Scope 2 (electricity, heat, cooling), location-based', 531],
      ['Scope 3 (T&D losses, well-to-tank, water, waste)', 55.59],
    ]);
  });

  it('add up energy in kWh only, and give each utility in its own unit', () => {
    const cards = totalCards('consumption', totals, undefined);
    expect(cards.map((c) => [c.label, c.value, c.unit])).toEqual([
      ['Energy', 8000, 'kWh'],
      ['Electricity', 3000, 'kWh'],
      ['Gas', 5000, 'kWh'],
      ['Water', 40, 'm³'],
    ]);
  });

  it('give the net cost and each utility cost', () => {
    expect(totalCards('costs', totals, undefined).map((c) => [c.label, c.value])).toEqual([
      ['Net cost', 1230],
      ['Electricity cost', 750],
      ['Gas cost', 400],
      ['Water cost', 80],
    ]);
  });

  it('give VAT, the levy and standing charges where the bills held them', () => {
    const split: Totals = { ...totals, vat: 230, ccl: 23.25, standingCharge: 51 };
    expect(totalCards('costs', split, undefined).map((c) => [c.label, c.value])).toEqual([
      ['Net cost', 1230],
      ['VAT', 230],
      ['Climate Change Levy', 23.25],
      ['Standing charges', 51],
      ['Electricity cost', 750],
      ['Gas cost', 400],
      ['Water cost', 80],
    ]);
  });
});

describe('scope 3 parts without a confirmed factor', () => {
  it('are named on screen, and nothing shows when every part is covered', () => {
    const text = textOf(renderHtml(<ScopeThreeGaps notCovered={['well-to-tank 2024']} />));
    expect(text).toContain('Not covered in scope 3');
    expect(text).toContain('well-to-tank 2024');
    expect(renderHtml(<ScopeThreeGaps notCovered={[]} />)).toBe('');
  });
});

describe('the chart series', () => {
  it('stack utilities per period, the estimated part of each as its own hatched series', () => {
    const series = seriesByUtility('consumption', [jan, feb]);
    expect(series).toEqual([
      {
        name: 'Electricity',
        points: [
          { x: 'Jan 2025', y: 3000 },
          { x: 'Feb 2025', y: 600 },
        ],
      },
      {
        name: 'Electricity (estimated)',
        estimatedOf: 'Electricity',
        points: [
          { x: 'Jan 2025', y: 0 },
          { x: 'Feb 2025', y: 200 },
        ],
      },
      {
        name: 'Gas',
        points: [
          { x: 'Jan 2025', y: 5000 },
          { x: 'Feb 2025', y: 0 },
        ],
      },
    ]);
  });

  it('stack the sites shown and what the rest of the scope adds up to', () => {
    const site = (b: BucketFigures, kg: number): BucketFigures => ({
      ...b,
      utilities: { electricity: { consumption: 0, unit: 'kWh', emissionsKg: kg } },
      emissionsKg: kg,
    });
    const series = seriesBySite(
      'emissions',
      [jan, feb],
      [{ assetId: 'a', name: 'Aldgate', buckets: [site(jan, 1000), feb] }],
    );
    expect(series.map((s) => [s.name, s.points.map((p) => p.y)])).toEqual([
      ['Aldgate', [1000, 124.2]],
      ['Aldgate (estimated)', [0, 41.4]],
      ['Other sites', [542, 0]],
    ]);
  });

  it('draw estimated parts hatched, under one "Estimated" legend entry', () => {
    const html = renderHtml(
      <BarChart title="Consumption by utility" series={seriesByUtility('consumption', [jan, feb])} />,
    );
    expect(html).toMatch(/<pattern id="hatch-[^"]+-1"/);
    expect(html).toMatch(/fill:url\(#hatch-[^)]+-1\)/);
    expect(html).toContain('>Estimated<');
    expect(html).not.toContain('Electricity (estimated)');
  });
});

describe('the year-on-year waterfall of emissions', () => {
  const change = {
    previousKg: 200,
    currentKg: 408,
    changeKg: 208,
    consumptionKg: 183,
    factorKg: -61.062,
    areaKg: 86.062,
    floorAreaM2: { previous: 100, current: 150 },
    areaUsed: true,
  };

  it('floats each effect from the running total and ends on the current total', () => {
    const bars = waterfallBars(emissionsChangeSteps(change).steps);
    expect(bars.map((b) => [b.x, b.y0, Number(b.y.toFixed(3))])).toEqual([
      ['Last year', 0, 200],
      ['Consumption', 200, 383],
      ['Emission factors', 383, 321.938],
      ['Floor area', 321.938, 408],
      ['This period', 0, 408],
    ]);
    // A rise is red, a fall green: less emitted is the good direction.
    expect(bars[1]?.fill).not.toBe(bars[2]?.fill);
  });

  it('lists each part with its signed figure, and the floor area counted', () => {
    const text = textOf(renderHtml(<EmissionsChangePanel change={change} />));
    expect(text).toContain('Change in emissions since last year (kg CO₂e)');
    expect(text).toContain('Consumption +183 kg CO₂e');
    expect(text).toContain('Emission factors -61 kg CO₂e');
    expect(text).toContain('Floor area +86 kg CO₂e');
    expect(text).toContain('100 m² last year, 150 m² now');
  });

  it('switches to tonnes for large totals', () => {
    const { unit, steps } = emissionsChangeSteps({ ...change, previousKg: 20_000, currentKg: 20_208 });
    expect(unit).toBe('t CO₂e');
    expect(steps[0]?.value).toBe(20);
  });
});

describe('word that figures changed', () => {
  it('makes every answer an Insights page shows stale, and nothing else', () => {
    // The paths the server names when a bill is confirmed on Aldgate (functions/analytics/analytics-live.ts).
    const stale = ['/analytics', '/users/me/dashboard-data', '/dashboards', '/assets/a1/analytics'];
    const query = { startDate: '2025-01-01', endDate: '2025-12-31' };
    for (const key of [
      analyticsKeys.analytics('consumption', query),
      analyticsKeys.analytics('asset-consumption', query),
      analyticsKeys.siteBatch('chart-sites', [{ _id: 'a1' }, { _id: 'a2' }], query),
      analyticsKeys.site('a1', query),
      '/users/me/dashboard-data',
      '/dashboards/d1/widgets/w1/data',
    ])
      expect(isStaleKey(key, stale)).toBe(true);
    for (const key of [analyticsKeys.portfolios, analyticsKeys.sites, analyticsKeys.site('a2', query)])
      expect(isStaleKey(key, stale)).toBe(false);
  });
});

describe('a click on a bar', () => {
  const sites = [{ assetId: 'a1', siteName: 'Aldgate' }];
  const view = { buckets: [jan, feb], granularity: 'monthly', sites };

  it('drills into the utility and the month of the bar', () => {
    expect(drillOfBar({ series: 'Electricity', x: 'Feb 2025' }, { ...view, breakdown: 'utility' })).toEqual({
      month: '2025-02',
      utilityType: 'electricity',
      from: '2025-02-01',
      to: '2025-02-28',
    });
  });

  it('drills into the site of the bar, keeping the chosen utility; "Other sites" names no site', () => {
    const bySite = { ...view, breakdown: 'site' as const, utility: 'gas' as const };
    expect(drillOfBar({ series: 'Aldgate', x: 'Jan 2025' }, bySite)).toEqual({
      assetId: 'a1',
      month: '2025-01',
      utilityType: 'gas',
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect(drillOfBar({ series: 'Other sites', x: 'Jan 2025' }, bySite).assetId).toBeUndefined();
  });

  it('names no month for a bar longer than a month, only its period', () => {
    const quarter = { ...jan, key: '2025-Q1', label: 'Q1 2025', end: '2025-03-31' };
    expect(
      drillOfBar(
        { series: 'Gas', x: 'Q1 2025' },
        { ...view, buckets: [quarter], granularity: 'quarterly', breakdown: 'utility' },
      ),
    ).toEqual({ utilityType: 'gas', from: '2025-01-01', to: '2025-03-31' });
  });
});

describe('the top sites', () => {
  it('rank sites by the measure with their share of the whole', () => {
    const rows = siteRows('costs', [
      { _id: 'a', siteName: 'Aldgate', totals: { utilities: jan.utilities, cost: 1230, emissionsKg: 0 } },
      { _id: 'h', siteName: 'Hardman', totals: { utilities: feb.utilities, cost: 200, emissionsKg: 0 } },
      { _id: 't', siteName: 'Temple', totals: { utilities: {}, emissionsKg: 0 } },
    ]);
    expect(rows.map((r) => [r.siteName, r.value, r.estimated, r.share])).toEqual([
      ['Aldgate', 1230, 0, 86],
      ['Hardman', 200, 50, 14],
      ['Temple', 0, 0, 0],
    ]);
    expect(rows[0]?.utilities).toEqual({ electricity: 750, gas: 400, water: 80 });
  });
});

describe('requests for the same analytics id', () => {
  it('abort the one still in flight when a newer one starts', async () => {
    const signals: AbortSignal[] = [];
    const api = {
      get: (_path: string, options?: RequestOptions) =>
        new Promise((resolve, reject) => {
          const signal = options?.signal as AbortSignal;
          signals.push(signal);
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          setTimeout(() => resolve({ ok: signals.length }), 10);
        }),
    } as unknown as ApiClient;
    const first = fetchLatest(api, 'consumption', '/analytics/v2/consumption?granularity=monthly');
    const other = fetchLatest(api, 'asset-consumption', '/analytics/v2/asset-consumption');
    const second = fetchLatest(api, 'consumption', '/analytics/v2/consumption?granularity=quarterly');
    await expect(first).rejects.toSatisfy(isAbort);
    await expect(second).resolves.toBeDefined();
    await expect(other).resolves.toBeDefined();
    expect(signals.map((s) => s.aborted)).toEqual([true, false, false]);
  });

  it('leave a finished request alone', async () => {
    const run = createLatestRequests();
    let seen: AbortSignal | undefined;
    await run('x', async (signal) => {
      seen = signal;
    });
    await run('x', async () => undefined);
    expect(seen?.aborted).toBe(false);
  });
});

describe('the costs page', () => {
  it('says costs are hidden, and asks for none, when the company hides cost data', () => {
    const session = {
      me: { _id: 'u1' },
      company: { _id: 'c1', name: 'Demo Estates', settings: { hideCostData: true } },
      permissions: { permissions: ['company_user'] },
      access: COMPANY_USER,
    } as unknown as Session;
    const text = textOf(
      renderHtml(
        <SessionProvider session={session}>
          <MemoryRouter initialEntries={['/analytics/costs']}>
            <CostsPage />
          </MemoryRouter>
        </SessionProvider>,
      ),
    );
    expect(text).toContain('Costs are hidden for your company.');
    expect(text).not.toContain('Net cost');
    expect(text).not.toContain('Granularity');
  });
});

describe('the factor set of the emissions', () => {
  const sets = {
    current: { id: 'desnz-v1', label: 'DESNZ first edition', restatedAt: '2026-11-20T10:00:00.000Z' },
    editions: [{ id: 'desnz-v1', label: 'DESNZ first edition' }],
  };
  const panel = (access: Session['access']) =>
    textOf(
      renderHtml(
        <ServicesProvider services={{ api: {} } as unknown as Services}>
          <SessionProvider session={{ company: { _id: 'c1', settings: {} }, access } as unknown as Session}>
            <SWRConfig value={{ fallback: { [FACTOR_SETS_KEY]: sets } }}>
              <FactorSetPanel />
            </SWRConfig>
          </SessionProvider>
        </ServicesProvider>,
      ),
    );

  it('is named to everyone, and only a company admin is offered the restatement', () => {
    const asUser = panel(COMPANY_USER);
    expect(asUser).toContain('Figures stated in DESNZ first edition (restated 2026-11-20)');
    expect(asUser).not.toContain('Restate');
    expect(panel(OWNER)).toContain('Restate…');
  });

  it('tells what a restatement changed, year by year, or that nothing did', () => {
    expect(
      restatementText({
        factorSet: 'desnz-v1',
        months: 1,
        years: [
          { year: '2024', beforeKg: 250, afterKg: 207.05 },
          { year: '2025', beforeKg: 177, afterKg: 177 },
        ],
      }),
    ).toBe('1 meter months recomputed. 2024: 250 kg → 207.1 kg.');
    expect(restatementText({ factorSet: 'desnz-v1', months: 0, years: [] })).toContain('No figure changed');
  });
});
