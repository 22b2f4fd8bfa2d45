import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AnalyticsAnswer } from '../../web/features/analytics/analytics-answer.ts';
import { figureText, measureOf } from '../../web/features/analytics/insights-figures.ts';
import { showMoney } from '../../web/features/analytics/provenance-figures.ts';
import { monthWindow } from '../../web/lib/provenance-link.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';
import { capturedBill } from './support/captured-bill.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env, { acceptDownloads: true });

/** The next analytics answer the page receives for an id whose query has every `has` part. */
function answerOf(page: Page, id: string, ...has: string[]): Promise<AnalyticsAnswer> {
  let answer: AnalyticsAnswer | undefined;
  // The body is read as the response arrives: a page that moves on right after would discard it.
  return page
    .waitForResponse(
      async (r: Response) => {
        if (
          !(r.url().includes(`/api/analytics/v2/${id}?`) && has.every((h) => r.url().includes(h)) && r.ok())
        )
          return false;
        answer = (await r.json()) as AnalyticsAnswer;
        return true;
      },
      { timeout: 20_000 },
    )
    .then(() => {
      if (!answer) throw new Error(`No answer read for ${id}`);
      return answer;
    });
}

async function cardText(page: Page, label: string): Promise<string> {
  const card = page.getByLabel(label, { exact: true });
  await card.waitFor({ state: 'visible', timeout: 15_000 });
  return (await card.textContent()) ?? '';
}

/** The middle of the chart's bar drawn over the x-axis label `label` (the billed part, not a hatched estimate). */
async function barAt(page: Page, chartName: RegExp, label: string): Promise<{ x: number; y: number }> {
  const chart = page.getByRole('figure', { name: chartName });
  await expect.poll(() => chart.textContent(), { timeout: 20_000 }).toContain(label);
  await chart.scrollIntoViewIfNeeded();
  const at = await chart.evaluate((figure, tick) => {
    const text = [...figure.querySelectorAll('text')].find((t) => t.textContent === tick);
    if (!text) return undefined;
    const axis = text.getBoundingClientRect();
    const middle = axis.left + axis.width / 2;
    // The bars standing over the label; the billed part is the solid one (estimates are hatched).
    const bars = [...figure.querySelectorAll('path')]
      .filter((p) => p.style.fill !== '' && !p.style.fill.startsWith('url('))
      .map((p) => p.getBoundingClientRect())
      .filter((r) => r.height > 0 && r.left <= middle && r.right >= middle && r.bottom <= axis.top);
    const bar = bars.sort((a, b) => b.bottom - a.bottom)[0];
    return bar ? { x: bar.left + bar.width / 2, y: bar.top + bar.height / 2 } : undefined;
  }, label);
  if (!at) throw new Error(`No bar drawn at ${label}`);
  return at;
}

describe('the Insights pages', () => {
  it('show the demo figures on each page, follow the granularity, export table and chart, and drill into a site', async () => {
    const { page } = tab;
    const emissions = answerOf(page, 'consumption', 'dataType=emissions');
    await signIn(page, env.stack.origin, 'owner@demo.test', '/analytics/emissions');
    const first = await emissions;
    expect(first.totals.emissionsKg).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Emissions' }).waitFor({ timeout: 15_000 });
    // The total is the service's scopes added up: 1, 2 location-based and 3 (T&D losses, water, waste).
    const scopes = first.scopes?.totals;
    expect(scopes?.totalLocation).toBeGreaterThan(first.totals.emissionsKg);
    expect(await cardText(page, 'Total emissions')).toBe(
      figureText(scopes?.totalLocation ?? Number.NaN, 'kg CO₂e'),
    );
    expect(await cardText(page, 'Scope 1 (gas and fuels)')).toBe(
      figureText(scopes?.scope1 ?? Number.NaN, 'kg CO₂e'),
    );

    // Year on year, the change is split into what consumption, factors and floor area added, as a waterfall.
    const change = first.comparison?.emissionsChange;
    expect(change?.previousKg).toBe(first.comparison?.totals.emissionsKg);
    expect(change?.currentKg).toBe(first.totals.emissionsKg);
    expect((change?.consumptionKg ?? 0) + (change?.factorKg ?? 0) + (change?.areaKg ?? 0)).toBeCloseTo(
      change?.changeKg ?? Number.NaN,
      6,
    );
    const waterfall = page.getByRole('figure', { name: /^Change in emissions since last year/ });
    await waterfall.waitFor({ timeout: 15_000 });
    for (const step of ['Last year', 'Consumption', 'Emission factors', 'Floor area', 'This period'])
      expect(await waterfall.locator(`[data-step="${step}"]`).textContent()).toMatch(/[\d,.]+ (kg|t) CO₂e$/);
    expect(await waterfall.locator('path').count()).toBeGreaterThanOrEqual(5);

    // Market-based: the demo's REGO-backed renewable supply counts 0, so scope 2 falls.
    const market = answerOf(page, 'consumption', 'dataType=emissions', 'emissions=market');
    await page.getByLabel('Scope 2 method').selectOption('market');
    const marketAnswer = await market;
    const marketScopes = marketAnswer.scopes?.totals;
    expect(marketAnswer.emissionsBasis).toBe('market');
    expect(marketScopes?.scope2Market).toBeLessThan(marketScopes?.scope2Location ?? 0);
    expect(marketScopes?.factorSets.scope2Market).toContain('rego-zero');
    await expect
      .poll(() => page.getByLabel('Total emissions', { exact: true }).textContent(), { timeout: 10_000 })
      .toBe(figureText(marketScopes?.totalMarket ?? Number.NaN, 'kg CO₂e'));
    await page.getByLabel('Scope 2 method').selectOption('location');
    // The demo holds more than a year of bills, so last year is there to compare with.
    expect(await page.getByLabel('Total emissions: change').textContent()).toMatch(
      /^[▲▼] [\d.]+% vs |^no change/,
    );

    const insights = page.getByRole('navigation', { name: 'Insights pages' });
    const consumption = answerOf(page, 'consumption', 'dataType=consumption');
    await insights.getByRole('link', { name: 'Consumption' }).click();
    const used = await consumption;
    expect(await cardText(page, 'Energy')).toBe(
      figureText(measureOf('consumption', used.totals).value, 'kWh'),
    );

    const costs = answerOf(page, 'consumption', 'dataType=cost');
    const bySite = answerOf(page, 'asset-consumption', 'dataType=cost');
    await insights.getByRole('link', { name: 'Costs' }).click();
    const spent = await costs;
    expect(spent.totals.cost).toBeGreaterThan(0);
    expect(await cardText(page, 'Net cost')).toBe(figureText(spent.totals.cost ?? 0, '£'));
    expect(spent.totals.vat).toBeGreaterThan(0);
    expect(await cardText(page, 'VAT')).toBe(figureText(spent.totals.vat ?? 0, '£'));
    expect(await cardText(page, 'Standing charges')).toBe(figureText(spent.totals.standingCharge ?? 0, '£'));
    const monthly = spent.buckets?.map((b) => b.label) ?? [];
    expect(monthly).toHaveLength(12);
    const chart = page.getByRole('figure', { name: /^Costs by utility/ });
    await expect.poll(() => chart.textContent(), { timeout: 10_000 }).toContain(monthly[0]);

    const quarterly = answerOf(page, 'consumption', 'dataType=cost', 'granularity=quarterly');
    await page.getByLabel('Granularity').selectOption('quarterly');
    const quarters = (await quarterly).buckets?.map((b) => b.label) ?? [];
    expect(quarters.length).toBeGreaterThanOrEqual(4);
    expect(quarters.length).toBeLessThanOrEqual(5);
    await expect.poll(() => chart.textContent(), { timeout: 10_000 }).toContain(quarters[0]);
    expect(await chart.textContent()).not.toContain(monthly[0]);
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('quarterly');

    const sites = (await bySite).assets ?? [];
    expect(sites.length).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('costs-by-site.csv');
    const lines = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Site,Costs \(£\),/);
    expect(lines).toHaveLength(sites.length + 1);
    const top = [...sites].sort((a, b) => (b.totals.cost ?? 0) - (a.totals.cost ?? 0))[0];
    const [name, value] = (lines[1] ?? '').split(',');
    expect(name).toBe(top?.siteName);
    expect(Number(value)).toBeCloseTo(top?.totals.cost ?? Number.NaN, 1);

    const [workbook] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Download XLSX' }).click(),
    ]);
    expect(workbook.suggestedFilename()).toBe('costs-by-site.xlsx');
    const files = unzipSync(new Uint8Array(await readFile(await workbook.path())));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    expect(sheet.match(/<row /g)).toHaveLength(sites.length + 1);
    expect(Number(/<c r="B2"><v>([^<]+)<\/v><\/c>/.exec(sheet)?.[1])).toBeCloseTo(
      top?.totals.cost ?? Number.NaN,
      1,
    );

    const [picture] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Download PNG' }).click(),
    ]);
    expect(picture.suggestedFilename()).toBe('costs-chart.png');
    const png = await readFile(await picture.path());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // A 640 × 260 chart drawn at twice its size.
    expect(png.readUInt32BE(16)).toBe(1280);

    await page.getByRole('table', { name: 'Top sites' }).getByRole('button', { name: top?.siteName }).click();
    const panel = page.getByRole('dialog', { name: 'Where does this come from?' });
    await panel.waitFor({ timeout: 15_000 });
    const address = new URL(page.url()).searchParams;
    expect({
      assetId: address.get('source.assetId'),
      from: address.get('source.from'),
      to: address.get('source.to'),
    }).toEqual({ assetId: top?._id, from: spent.window.startDate, to: spent.window.endDate });
    // The panel starts at the site that was clicked, and its parts add up to the site's figure.
    await panel
      .getByText(top?.siteName ?? '')
      .first()
      .waitFor({ timeout: 15_000 });
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached', timeout: 5_000 });
  });

  it('charts emissions by site, and asks for an entity in one call', async () => {
    const { page } = tab;
    const bySite = answerOf(page, 'asset-consumption', 'dataType=emissions');
    await signIn(page, env.stack.origin, 'owner@demo.test', '/analytics/emissions?by=site');
    const sites = (await bySite).assets ?? [];
    const top = [...sites].sort((a, b) => b.totals.emissionsKg - a.totals.emissionsKg)[0];
    const chart = page.getByRole('figure', { name: /^Emissions by site/ });
    await expect.poll(() => chart.textContent(), { timeout: 15_000 }).toContain(top?.siteName);

    await page.getByLabel('Scope', { exact: true }).selectOption('entity');
    const entity = page.getByLabel('Entity', { exact: true });
    await expect.poll(() => entity.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    const entityAnswer = answerOf(
      page,
      'consumption',
      'dataType=emissions',
      'entityId=',
      'comparePeriod=year',
    );
    await entity.selectOption({ index: 1 });
    // The service adds up the entity's sites and those of the entities below it.
    const answer = await entityAnswer;
    expect(answer.scope.type).toBe('entity');
    await expect
      .poll(() => page.getByLabel('Total emissions', { exact: true }).textContent(), { timeout: 20_000 })
      .toBe(figureText(answer.scopes?.totals.totalLocation ?? Number.NaN, 'kg CO₂e'));
    expect(new URL(page.url()).searchParams.get('scope')).toBe('entity');
  });

  it('drills from a bar of the emissions chart and from a total card to a site, a meter, a bill and its PDF', async () => {
    const bill = await capturedBill(env, 'owner@demo.test');
    const { page } = tab;
    // Whole months from the one before the bill to its last, on its utility alone.
    const before = new Date(`${bill.month}-01T00:00:00Z`);
    before.setUTCMonth(before.getUTCMonth() - 1);
    const from = monthWindow(before.toISOString().slice(0, 7)).from;
    const to = monthWindow(bill.end.slice(0, 7)).to;
    const emissions = answerOf(page, 'consumption', 'dataType=emissions', `startDate=${from}`);
    await signIn(
      page,
      env.stack.origin,
      'owner@demo.test',
      `/analytics/emissions?from=${from}&to=${to}&utility=${bill.utilityType}`,
    );
    const bucket = (await emissions).buckets?.find((b) => b.start.startsWith(bill.month));
    expect(bucket).toBeDefined();

    // A bar: the drill-down opens on that month of that utility, starting from the sites.
    const bar = await barAt(page, /^Emissions by utility/, bucket?.label ?? '');
    await page.mouse.click(bar.x, bar.y);
    const panel = page.getByRole('dialog', { name: 'Where does this come from?' });
    await panel.waitFor({ state: 'visible', timeout: 15_000 });
    const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    await panel
      .getByText(`${monthName.format(new Date(`${bill.month}-01T00:00:00Z`))} · ${bill.utilityType}`)
      .waitFor();
    const sites = panel.getByRole('table', { name: 'Sites' });
    await sites.getByRole('button', { name: bill.siteName, exact: true }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('source.month')).toBe(bill.month);

    // A total card: the drill-down turns to the page's whole window.
    await page.getByLabel('Total emissions', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('source.month')).toBeNull();
    expect(new URL(page.url()).searchParams.get('source.from')).toBe(from);
    expect(new URL(page.url()).searchParams.get('source.to')).toBe(to);

    // Down to the site, its meter and the bill: the whole bill lies in the window.
    await sites.getByRole('button', { name: bill.siteName, exact: true }).click({ timeout: 20_000 });
    const meters = panel.getByRole('table', { name: 'Meters' });
    await meters.getByRole('button', { name: bill.meterName, exact: true }).click({ timeout: 20_000 });
    const bills = panel.getByRole('table', { name: 'Bills and other parts' });
    await bills.getByRole('button', { name: `Bill ${bill.invoiceNumber}` }).click({ timeout: 20_000 });
    await panel.getByRole('heading', { name: `Bill ${bill.invoiceNumber}` }).waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('provenance-share').textContent()).toBe('100%');
    expect(await panel.getByText(/^The whole bill:/).textContent()).toContain(
      `${showMoney(bill.grossTotal)} with VAT`,
    );
    expect(await panel.getByTestId('provenance-factor').first().textContent()).toMatch(
      / · version desnz-\d{4}-v\d+/,
    );
    expect(await panel.getByTestId('provenance-confirmation').textContent()).toMatch(
      new RegExp(`^Confirmed by ${bill.confirmedBy} on `),
    );

    // The PDF, with the total outlined.
    await panel.getByRole('button', { name: 'View on the bill' }).click();
    const highlight = panel.getByTestId('value-highlight');
    await highlight.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await highlight.getAttribute('title')).toBe('Total');
    expect(await panel.getByText(/^Outlined: the total as capture read it/).isVisible()).toBe(true);
  }, 180_000);
});
