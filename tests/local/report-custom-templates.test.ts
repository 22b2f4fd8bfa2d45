import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoToken, type Json, jsonApi, reportBuilt } from '../support/local-api.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { pdfPages, xlsxSheets } from '../support/report-files.ts';

let local: LocalStackHandle;
let token = '';

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  token = await demoToken(local);
}, 180_000);
afterAll(() => local?.stop());

const { api, post } = jsonApi(
  () => local.apiUrl,
  () => token,
);

const built = (id: string) => reportBuilt(local, api, id, 90_000);

async function downloaded(id: string): Promise<Uint8Array> {
  const link = await api(`/reports/${id}/download`);
  expect(link.status).toBe(200);
  return new Uint8Array(await (await fetch(String(link.body.url))).arrayBuffer());
}

const YEAR = { startDate: '2025-01-01', endDate: '2025-12-31' };

const BOARD_PACK = {
  name: 'Board energy pack',
  description: 'What the board reads each quarter',
  scopeType: 'company',
  period: 'last-year',
  sections: [
    { kind: 'text', title: 'Foreword', text: 'Figures from the energy team.' },
    { kind: 'figures', title: 'Carbon this year', measure: 'emissions' },
    { kind: 'table', title: 'Cost by utility', measure: 'cost', grouping: 'utility' },
    { kind: 'table', title: 'Consumption', measure: 'consumption', grouping: 'utility' },
    { kind: 'chart', title: 'Energy by month', measure: 'energy', grouping: 'month' },
  ],
};

describe('report templates of a company', () => {
  let templateId = '';
  let pdfReport: Json = {};

  it('refuses a template that cannot be built, beside each field at fault', async () => {
    const refused = await post('/report-templates', {
      name: '',
      sections: [
        { kind: 'table', title: 'Split how?', measure: 'energy' },
        { kind: 'figures', title: 'What?' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toMatchObject({
      name: 'This field is required',
      'sections.0.grouping': 'Choose how it is split',
      'sections.1.measure': 'Choose what it shows',
    });
    expect(
      (await post('/report-templates', { name: 'Empty', sections: [] })).body.formMessages,
    ).toMatchObject({
      sections: 'Add at least one section',
    });
  }, 60_000);

  it('saves a template, previews it, and builds it as a workbook with the analytics figures', async () => {
    const created = await post('/report-templates', BOARD_PACK);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    templateId = String(created.body._id);
    const badPatch = await api(`/report-templates/${templateId}`, {
      method: 'PATCH',
      body: JSON.stringify({ sections: [] }),
    });
    expect(badPatch.status).toBe(400);

    const analytics = (
      await api(
        `/analytics/v2/consumption?startDate=${YEAR.startDate}&endDate=${YEAR.endDate}&granularity=monthly&comparePeriod=year`,
      )
    ).body as {
      totals: { emissionsKg: number; utilities: Record<string, { consumption: number; cost?: number }> };
    };
    const electricity = analytics.totals.utilities.electricity;
    expect(electricity?.consumption).toBeGreaterThan(0);

    const preview = await post('/report-templates/preview', { template: BOARD_PACK, ...YEAR });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const doc = preview.body.document as { sections: { heading: string }[] };
    expect(doc.sections.map((s) => s.heading)).toEqual(BOARD_PACK.sections.map((s) => s.title));

    const asked = await post('/reports/generate2', {
      templateId: 'custom',
      reportTemplateId: templateId,
      ...YEAR,
      format: 'xlsx',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const report = await built(String(asked.body._id));
    expect(report.status, String(report.error)).toBe('ready');
    expect(report.name).toBe('Board energy pack 2025-01-01 to 2025-12-31');
    const sheets = xlsxSheets(await downloaded(String(report._id)));
    expect([...sheets.keys()]).toEqual(['Cost by utility', 'Consumption']);
    const costRow = sheets.get('Cost by utility')?.find((r) => r[0] === 'Electricity');
    expect(costRow?.[1]).toBeCloseTo(electricity?.cost ?? Number.NaN, 6);
    const used = sheets.get('Consumption')?.find((r) => r[0] === 'Electricity');
    expect(used?.[2]).toBeCloseTo(electricity?.consumption ?? Number.NaN, 6);
    const headline = report.headline as { label: string; value: string }[];
    expect(headline[0]?.value).toBe(
      (analytics.totals.emissionsKg / 1000).toLocaleString('en-GB', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
    );
  }, 180_000);

  it('builds the same template as a PDF and a CSV holding the chosen sections', async () => {
    const pdf = await post('/reports/generate2', {
      templateId: 'custom',
      reportTemplateId: templateId,
      ...YEAR,
      format: 'pdf',
    });
    const csv = await post('/reports/generate2', {
      templateId: 'custom',
      reportTemplateId: templateId,
      ...YEAR,
      format: 'csv',
    });
    pdfReport = await built(String(pdf.body._id));
    expect(pdfReport.status).toBe('ready');
    expect((await built(String(csv.body._id))).status).toBe('ready');
    const text = (await pdfPages(await downloaded(String(pdf.body._id)))).join('\n');
    for (const s of BOARD_PACK.sections) expect(text).toContain(s.title);
    expect(text).toContain('Figures from the energy team.');
    const rows = new TextDecoder().decode(await downloaded(String(csv.body._id)));
    expect(rows).toContain('Cost by utility\r\nUtility,');
    expect(rows).not.toContain('Foreword');

    const unknown = await post('/reports/generate2', {
      templateId: 'custom',
      reportTemplateId: 'a'.repeat(24),
      ...YEAR,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.formMessages).toEqual({ reportTemplateId: 'No such report template was found' });
  }, 180_000);

  it("gives a report's sections, charts and figures to those who may read it, without its file", async () => {
    const id = String(pdfReport._id);
    const content = await api(`/reports/${id}/document`);
    expect(content.status, JSON.stringify(content.body)).toBe(200);
    expect(content.body).toMatchObject(YEAR);
    const doc = content.body.document as {
      sections: { heading: string; blocks: { kind: string; items?: { value: string }[] }[] }[];
    };
    expect(doc.sections.map((s) => s.heading)).toEqual(BOARD_PACK.sections.map((s) => s.title));
    const blocksOf = (heading: string) => doc.sections.find((s) => s.heading === heading)?.blocks ?? [];
    expect(blocksOf('Energy by month').map((b) => b.kind)).toContain('chart');
    // The figures are the file's: the key figure equals the one the built report recorded.
    const figures = blocksOf('Carbon this year').find((b) => b.kind === 'figures');
    const headline = pdfReport.headline as { value: string }[];
    expect(figures?.items?.[0]?.value).toBe(headline[0]?.value);

    expect((await api(`/reports/${'b'.repeat(24)}/document`)).status).toBe(404);
    // A company-wide report is not for a user who reads only some sites.
    const assetToken = await demoToken(local, 'asset@demo.test');
    const asAsset = await fetch(`${local.apiUrl}/reports/${id}/document`, {
      headers: { authorization: `Bearer ${assetToken}` },
    });
    expect([403, 404]).toContain(asAsset.status);
  }, 120_000);

  it('is sent by a schedule, its report attached to the mail', async () => {
    const created = await post('/scheduled-reports', {
      name: 'Board pack',
      reportTemplateId: templateId,
      recipients: ['board@example.net'],
      frequency: 'monthly',
      format: 'xlsx',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await post(`/scheduled-reports/${String(created.body._id)}/send`, {});
    expect(sent.status).toBe(202);
    await local.drainQueues(90_000);
    const dir = join(local.stateDir, 'outbox');
    const names = (await readdir(dir)).filter((n) => n.endsWith('.eml'));
    const mails = await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
    const mine = mails.filter((m) => /^To: board@example\.net$/m.test(m));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(/^Subject: .*Board pack/m);
    expect(mine[0]).toMatch(/Content-Disposition: attachment; filename=".+\.xlsx"/);
  }, 180_000);
});
