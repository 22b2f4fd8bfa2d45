import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHalfHourlyDays } from '../../functions/analytics/index.ts';
import { saveConnection } from '../../functions/core/live/live-connection-repository.ts';
import { type InvoiceAccountWorld, januaryBill, startInvoiceAccountWorld } from './invoices-support.ts';

const MPAN = '1312345678907';
let w: InvoiceAccountWorld;
let management: Server;
/** What the WebSocket management API was asked to send, by connection. */
const sent: { connectionId: string; message: { type: string; keys?: string[]; data?: object } }[] = [];

function analyticsMessagesTo(connectionId: string) {
  return sent.filter((s) => s.connectionId === connectionId && s.message.type === 'analytics.changed');
}

beforeAll(async () => {
  w = await startInvoiceAccountWorld({ siteName: 'Temple Quay Point', meterPointNumber: MPAN, name: 'Main' });
  // A stand-in for API Gateway's management API: it records each PostToConnection.
  management = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /\/@connections\/([^/?]+)/.exec(req.url ?? '')?.[1];
      if (req.method === 'POST' && id)
        sent.push({
          connectionId: decodeURIComponent(id),
          message: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => management.listen(0, '127.0.0.1', resolve));
  process.env.LIVE_ENDPOINT = `http://127.0.0.1:${(management.address() as AddressInfo).port}`;
  const connectedAt = new Date().toISOString();
  await saveConnection({ connectionId: 'demo-conn', sub: 'owner', companyId: w.demoId, connectedAt });
  await saveConnection({ connectionId: 'other-conn', sub: 'outsider', companyId: w.otherId, connectedAt });
});

afterAll(async () => {
  await w?.stop();
  await new Promise((resolve) => management?.close(resolve));
});

describe('live word of changed figures', () => {
  it("tells the company's open pages, and no other company's, that a confirmed bill changed its figures", async () => {
    const id = await w.captured(
      januaryBill('EDF', {
        meterPointNumber: MPAN,
        consumption: 10000,
        netTotal: 2307.5,
        vatTotal: 461.5,
        grossTotal: 2769,
      }),
    );
    sent.length = 0;
    expect((await w.call('POST', `/invoices/${id}/confirm`)).status).toBe(200);
    const ours = analyticsMessagesTo('demo-conn');
    expect(ours).toHaveLength(1);
    // Ids and months only, no figure: each page asks again through its own permissions.
    expect(ours[0]?.message).toEqual({
      type: 'analytics.changed',
      keys: expect.arrayContaining([
        '/analytics',
        '/users/me/dashboard-data',
        `/assets/${w.assetId}/analytics`,
      ]),
      data: { accountId: w.accountId, assetId: w.assetId, from: '2026-01', to: '2026-01' },
    });
    expect(sent.filter((s) => s.connectionId === 'other-conn')).toEqual([]);
    // The roll-ups were current when the message left: the company's figures hold the bill.
    const figures = await w.call(
      'GET',
      '/analytics/v2/consumption?startDate=2026-01-01&endDate=2026-01-31&dateBreakdown=false',
    );
    expect(figures.body.totals).toMatchObject({ utilities: { electricity: { consumption: 10000 } } });
  });

  it('tells them when interval data is written, naming the months it touched', async () => {
    sent.length = 0;
    const day = (date: string) => ({ date, values: Array.from({ length: 48 }, () => 1) });
    await writeHalfHourlyDays(w.demoId, w.accountId, [day('2026-02-27'), day('2026-03-02')]);
    expect(analyticsMessagesTo('demo-conn').map((s) => s.message.data)).toEqual([
      { accountId: w.accountId, assetId: w.assetId, from: '2026-02', to: '2026-03' },
    ]);
    expect(sent.filter((s) => s.connectionId === 'other-conn')).toEqual([]);
  });
});
