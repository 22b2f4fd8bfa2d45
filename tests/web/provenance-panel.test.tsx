import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import type { ProvenanceAnswer, ProvenanceBill, ProvenanceMeter } from '../../shared/schemas/provenance.ts';
import { provenanceKeys } from '../../web/features/analytics/provenance-api.ts';
import { BillView } from '../../web/features/analytics/provenance-bill.tsx';
import { ProvenancePanel } from '../../web/features/analytics/provenance-panel.tsx';
import { renderHtml, textOf } from './render.tsx';

const SITE = 'a'.repeat(24);
const METER = 'b'.repeat(24);
const GAS = 'c'.repeat(24);
const FEB = { from: '2025-02-01', to: '2025-02-28' };

const b1: ProvenanceBill = {
  invoiceId: 'd'.repeat(24),
  invoiceNumber: 'INV-B1',
  period: { start: '2025-01-15', end: '2025-02-14' },
  days: 31,
  daysInWindow: 14,
  share: 0.451613,
  bill: { consumption: 3100, unit: 'kWh', netTotal: 620, grossTotal: 744 },
  part: { consumption: 1400, unit: 'kWh', cost: 280, emissionsKg: 247.8 },
  months: [
    { month: '2025-02', consumption: 1400, cost: 280, emissionsKg: 247.8, factorVersion: 'desnz-2025-v1' },
  ],
  factors: [],
  confirmation: { how: 'confirmed', by: { sub: 'owner', name: 'Ana Ruiz' }, at: '2025-03-02T10:00:00Z' },
  positions: {},
  readings: [],
  hasDocument: true,
};
const electricity: ProvenanceMeter = {
  _id: METER,
  name: 'Aldgate electricity',
  utilityType: 'electricity',
  figure: { consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 495.6 },
  bills: [b1, { ...b1, invoiceId: 'e'.repeat(24), invoiceNumber: 'INV-B2', share: 0.5, days: 28 }],
  others: [],
};
const gas: ProvenanceMeter = {
  _id: GAS,
  name: 'Aldgate gas',
  utilityType: 'gas',
  figure: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
  bills: [],
  others: [
    {
      kind: 'estimate',
      month: '2025-02',
      part: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
    },
  ],
};
const figure = {
  utilities: {
    electricity: { consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 495.6 },
    gas: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
  },
  cost: 610,
  emissionsKg: 586.755,
};
const answer = (meters: ProvenanceMeter[], recorded = figure): ProvenanceAnswer => ({
  window: FEB,
  costsIncluded: true,
  level: 'site',
  figure,
  sites: [{ _id: SITE, siteName: 'Aldgate', figure, meters, recorded }],
});

function render(selection: { assetId?: string; accountId?: string }, data: ProvenanceAnswer): string {
  const key = provenanceKeys.provenance({ ...FEB, ...selection });
  return textOf(
    renderHtml(
      <MemoryRouter>
        <SWRConfig value={{ fallback: { [key]: data } }}>
          <ProvenancePanel selection={{ ...FEB, month: '2025-02', ...selection }} onClose={() => {}} />
        </SWRConfig>
      </MemoryRouter>,
    ),
  );
}

describe('the provenance panel', () => {
  it("shows a site's meters adding up to its figure", () => {
    const text = render({ assetId: SITE }, answer([electricity, gas]));
    expect(text).toContain('February 2025');
    expect(text).toContain('All sites → Aldgate');
    expect(text).toContain('Aldgate electricity');
    expect(text).toContain('Sum of the 2 parts £610.00 586.755 kgCO₂e');
    expect(text).toContain("Aldgate's figure £610.00 586.755 kgCO₂e");
    expect(text).toContain('✓ The parts add up to the figure.');
    expect(text).not.toContain('monthly roll-up');
  });

  it('says when the roll-up Insights shows is not what the meters make', () => {
    const text = render(
      { assetId: SITE },
      answer([electricity, gas], { ...figure, cost: 630, emissionsKg: 604.455 }),
    );
    expect(text).toContain("The site's monthly roll-up holds 604.455 kgCO₂e and £630.00");
  });

  it("shows a meter's bills, each with its share by days, and an estimated gap as a part of its own", () => {
    const one = render({ assetId: SITE, accountId: METER }, answer([electricity]));
    expect(one).toContain('All sites → Aldgate → Aldgate electricity');
    expect(one).toContain('Bill INV-B1 15/01/2025 to 14/02/2025: 14 of 31 days, 45.2% of the bill');
    expect(one).toContain('Sum of the 2 parts 2,800 kWh £560.00 495.6 kgCO₂e');
    const other = render({ assetId: SITE, accountId: GAS }, answer([gas]));
    expect(other).toContain('Estimated: no bill covers these days');
    expect(other).toContain('✓ The parts add up to the figure.');
  });

  it('says beside a factor that it is unconfirmed, or that another year stands in', () => {
    const water: ProvenanceBill = {
      ...b1,
      hasDocument: false,
      factors: [
        {
          value: 0.15311,
          unit: 'm³',
          activity: 'supply',
          scope: 3,
          year: 2024,
          set: 'DESNZ 2024',
          version: 'desnz-2024-v1',
          note: 'no 2023 figure: the 2024 factor stands in',
        },
      ],
    };
    const text = textOf(
      renderHtml(
        <MemoryRouter>
          <SWRConfig value={{ provider: () => new Map() }}>
            <BillView bill={water} />
          </SWRConfig>
        </MemoryRouter>,
      ),
    );
    expect(text).toContain('version desnz-2024-v1 · no 2023 figure: the 2024 factor stands in');
  });
});
