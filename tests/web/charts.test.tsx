import { describe, expect, it } from 'vitest';
import { BarChart } from '../../web/components/charts/bar-chart.tsx';
import { axisTitle, shapeSeries, tickLabel } from '../../web/components/charts/shape-series.ts';
import { renderHtml } from './render.tsx';

interface Reading {
  month: string;
  fuel: string;
  kwh?: number | null;
}
const readings: Reading[] = [
  { month: 'Feb', fuel: 'Gas', kwh: 20 },
  { month: 'Jan', fuel: 'Electricity', kwh: 10 },
  { month: 'Feb', fuel: 'Electricity', kwh: 5 },
  { month: 'Feb', fuel: 'Electricity', kwh: 7 },
  { month: 'Mar', fuel: 'Gas', kwh: null },
];
const byFuel = { x: (r: Reading) => r.month, y: (r: Reading) => r.kwh, group: (r: Reading) => r.fuel };

describe('series for a chart', () => {
  it('makes one series per group with a point at every x, adding up rows that share both', () => {
    const { xs, series } = shapeSeries(readings, byFuel);
    expect(xs).toEqual(['Feb', 'Jan', 'Mar']);
    expect(series).toEqual([
      {
        name: 'Gas',
        points: [
          { x: 'Feb', y: 20 },
          { x: 'Jan', y: 0 },
          { x: 'Mar', y: 0 },
        ],
      },
      {
        name: 'Electricity',
        points: [
          { x: 'Feb', y: 12 },
          { x: 'Jan', y: 10 },
          { x: 'Mar', y: 0 },
        ],
      },
    ]);
  });

  it('leaves gaps for missing values when asked, rather than zeros', () => {
    const { series } = shapeSeries(readings, { ...byFuel, missing: 'gap' });
    expect(series.map((s) => s.points.map((p) => p.y))).toEqual([
      [20, null, null],
      [12, 10, null],
    ]);
  });

  it('follows the given x and group orders, putting values they do not list after them', () => {
    const { xs, series } = shapeSeries(readings, {
      ...byFuel,
      xOrder: ['Jan', 'Feb'],
      groupOrder: ['Electricity', 'Gas'],
    });
    expect(xs).toEqual(['Jan', 'Feb', 'Mar']);
    expect(series.map((s) => s.name)).toEqual(['Electricity', 'Gas']);
    expect(series[0]?.points.map((p) => p.y)).toEqual([10, 12, 0]);
  });

  it('makes a single unnamed series without a group', () => {
    const { series } = shapeSeries(readings, { x: byFuel.x, y: byFuel.y });
    expect(series).toEqual([
      {
        name: '',
        points: [
          { x: 'Feb', y: 32 },
          { x: 'Jan', y: 10 },
          { x: 'Mar', y: 0 },
        ],
      },
    ]);
    expect(shapeSeries([], byFuel)).toEqual({ xs: [], series: [] });
  });

  it('labels axes and ticks in their currency or unit', () => {
    expect(axisTitle('Cost', { currency: 'GBP' })).toBe('Cost (£)');
    expect(axisTitle('Cost', { currency: 'EUR' })).toBe('Cost (€)');
    expect(axisTitle('Consumption', { unit: 'kWh' })).toBe('Consumption (kWh)');
    expect(axisTitle('Sites', undefined)).toBe('Sites');
    expect(tickLabel(1200, { currency: 'GBP' })).toBe('£1,200');
    expect(tickLabel(-5, { currency: 'GBP' })).toBe('-£5');
    expect(tickLabel(12500.4, { unit: 'kWh' })).toBe('12,500 kWh');
    expect(tickLabel(0.25, { unit: 'tCO₂e' }, 2)).toBe('0.25 tCO₂e');
    expect(tickLabel(3000, undefined)).toBe('3,000');
  });
});

describe('the bar chart', () => {
  it('draws a bar per value, labels the value axis in its unit, and names the figure', () => {
    const { series } = shapeSeries(readings, { x: byFuel.x, y: byFuel.y, missing: 'gap' });
    const html = renderHtml(<BarChart title="Consumption (kWh)" series={series} unit={{ unit: 'kWh' }} />);
    expect(html).toContain('role="figure"');
    expect(html).toContain('aria-label="Consumption (kWh)"');
    // Feb and Jan have values; Mar is a gap, so it keeps its place on the axis but draws no bar.
    expect(html.match(/<path style="fill:#1c7ed6/g)).toHaveLength(2);
    expect(html).toMatch(/>Mar<\/tspan>/);
    expect(html).toMatch(/kWh<\/tspan>/);
  });

  it('stacks several series under a legend', () => {
    const { series } = shapeSeries(readings, byFuel);
    const html = renderHtml(<BarChart title="By fuel" series={series} unit={{ currency: 'GBP' }} />);
    expect(html).toMatch(/>Gas<\/tspan>/);
    expect(html).toMatch(/>Electricity<\/tspan>/);
    expect(html).toMatch(/>£\d/);
  });
});
