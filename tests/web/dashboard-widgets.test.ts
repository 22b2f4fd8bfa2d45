import { describe, expect, it } from 'vitest';
import {
  type DashboardWidget,
  inDashboardOrder,
  widgetComparePeriod,
  widgetWindow,
} from '../../shared/schemas/dashboard-widgets.ts';
import { choiceOf, formatFigure } from '../../web/features/dashboard/widget-card.tsx';
import { changeOf, moved, placed } from '../../web/features/dashboard/widget-order.ts';

const widget = (id: string, y?: number, settings: DashboardWidget['settings'] = { type: 'emissions' }) => ({
  _id: id,
  dashboardId: 'd',
  ...(y === undefined ? {} : { position: { x: 0, y, w: 1, h: 1 } }),
  settings,
});

describe('reordering widgets', () => {
  it('moves one widget and keeps the others in order', () => {
    expect(moved(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moved(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(moved(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });

  it('saves only the widgets whose place changed', () => {
    const order = moved([widget('a', 0), widget('b', 1), widget('c', 2), widget('d', 3)], 2, 0);
    const { widgets, changed } = placed(order);
    expect(widgets.map((w) => [w._id, w.position?.y])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
      ['d', 3],
    ]);
    expect(changed.map((w) => w._id)).toEqual(['c', 'a', 'b']);
  });

  it('shows widgets by position, those without one last in creation order', () => {
    const order = inDashboardOrder([widget('b'), widget('c', 1), widget('a'), widget('d', 0)]);
    expect(order.map((w) => w._id)).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('widget figures', () => {
  it('gives the change from the comparison only when there is one to compare with', () => {
    expect(changeOf(120, 100)).toBeCloseTo(0.2);
    expect(changeOf(80, 100)).toBeCloseTo(-0.2);
    expect(changeOf(80, 0)).toBeUndefined();
    expect(changeOf(80, undefined)).toBeUndefined();
  });

  it('writes figures with their units', () => {
    expect(formatFigure(1234.4, 'GBP')).toBe('£1,234');
    expect(formatFigure(1.234, 'tCO2e')).toBe('1.23 tCO₂e');
    expect(formatFigure(95.55, '%')).toBe('95.6%');
    expect(formatFigure(12000, 'kWh')).toBe('12,000 kWh');
  });

  it("reads a widget's title and period, with the type's name when it has no title", () => {
    expect(choiceOf(widget('a', 0, { type: 'top-sites' }))).toEqual({
      type: 'top-sites',
      title: 'Top sites',
      period: 'last-12-months',
    });
    expect(
      choiceOf(widget('a', 0, { type: 'cost', customData: { title: 'Spend', period: 'last-year' } })),
    ).toEqual({ type: 'cost', title: 'Spend', period: 'last-year' });
  });
});

describe('widget periods and comparisons (02 §9)', () => {
  const today = '2026-03-15';
  it('covers full days before today', () => {
    expect(widgetWindow('last-12-months', today)).toEqual({ start: '2025-03-01', end: '2026-02-28' });
    expect(widgetWindow('last-month', today)).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(widgetWindow('last-quarter', today)).toEqual({ start: '2025-12-01', end: '2026-02-28' });
    expect(widgetWindow('this-year', today)).toEqual({ start: '2026-01-01', end: '2026-03-14' });
    expect(widgetWindow('last-year', today)).toEqual({ start: '2025-01-01', end: '2025-12-31' });
    expect(widgetWindow('this-year', '2026-01-01')).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });

  it('compares a full month with the month before, a full year with the year before, else the days before', () => {
    expect(widgetComparePeriod({ start: '2026-02-01', end: '2026-02-28' })).toBe('month');
    expect(widgetComparePeriod({ start: '2025-01-01', end: '2025-12-31' })).toBe('year');
    // Twelve months over a leap day: the 366 days before, not the same months a year back.
    expect(widgetComparePeriod({ start: '2024-03-01', end: '2025-02-28' })).toBe('period');
    expect(widgetComparePeriod({ start: '2026-01-01', end: '2026-03-14' })).toBe('period');
  });
});
