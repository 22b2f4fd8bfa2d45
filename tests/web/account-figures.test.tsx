import { describe, expect, it } from 'vitest';
import type { AccountConsumption } from '../../shared/schemas/account-views.ts';
import { CostChart, costDomain } from '../../web/features/accounts/account-consumption-page.tsx';
import { contractRateText } from '../../web/features/accounts/contract-rate-text.ts';
import { renderHtml, textOf } from './render.tsx';

describe('contract rates', () => {
  it('print with their price unit: pence a kWh for unit rates, pounds a day for standing charges', () => {
    expect(contractRateText(0.23429, 'kWh')).toBe('23.429 p/kWh');
    expect(contractRateText(0.00775, 'kWh')).toBe('0.775 p/kWh');
    expect(contractRateText(0.65, 'day')).toBe('£0.65/day');
    expect(contractRateText(1.2, 'per day')).toBe('£1.20/day');
    expect(contractRateText(23.4, 'p/kWh')).toBe('23.4 p/kWh');
    expect(contractRateText(0.5, '£/day')).toBe('£0.50/day');
  });
});

describe('the meter cost chart', () => {
  const month = (period: string, cost: number) => ({ period, consumption: 1000, cost, emissionsKg: 0 });
  const result = {
    accountId: 'a',
    unit: 'kWh',
    currency: 'GBP',
    granularity: 'month',
    startDate: '2025-01-01',
    endDate: '2025-03-31',
    data: [month('2025-01', 1650), month('2025-02', 1720), month('2025-03', 1690)],
    totals: { consumption: 3000, cost: 5060, emissionsKg: 0 },
  } as unknown as AccountConsumption;

  it('starts its axis at £0, not near the smallest month, and prints pounds', () => {
    expect(costDomain([1650, 1720, 1690])).toEqual([0, 1720]);
    expect(costDomain([-40, 120])).toEqual([-40, 120]);
    const text = textOf(renderHtml(<CostChart result={result} />));
    // Ticks well below the cheapest month (£1,650) show the axis runs down to nothing.
    expect(text).toContain('£500 £1,000 £1,500');
    expect(text).not.toMatch(/(^|\s)1,[67]\d0(\s|$)/);
  });
});
