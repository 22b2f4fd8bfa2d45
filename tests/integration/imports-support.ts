import type { SQSBatchResponse } from 'aws-lambda';
import { expect } from 'vitest';
import { listAccountMonths, listAssetRollups, listCompanyRollups } from '../../functions/accounts/index.ts';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import type { TestResponse } from '../support/http-events.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';
import { created } from './register-support.ts';

type Worker = (event: ReturnType<typeof sqsEvent>) => Promise<SQSBatchResponse>;

export interface ImportWorld extends InvoiceWorld {
  /** Asks for an upload URL, puts the file to it and lets the worker read it, as S3's event would. */
  upload: (token: string, type: string, fileName: string, bytes: Uint8Array) => Promise<string>;
  /** Starts an import or rollback and runs the worker on the message it queued. */
  run: (token: string, id: string, action: 'import' | 'rollback') => Promise<TestResponse>;
  /** Runs the imports worker on whatever the imports queue holds. */
  work: () => Promise<void>;
  /** Runs the imports worker on one message, as SQS would hand it over. */
  workOn: (message: Record<string, unknown>) => Promise<void>;
  get: (token: string, path: string) => Promise<TestResponse>;
  post: (token: string, path: string, body?: unknown) => Promise<TestResponse>;
}

export async function startImportWorld(): Promise<ImportWorld> {
  const w = await startInvoiceWorld();
  const worker = (await import('../../functions/handlers/queue/imports.ts')).handler as unknown as Worker;
  const get = (token: string, path: string) => w.api({ method: 'GET', path, token });
  const post = (token: string, path: string, body: unknown = {}) =>
    w.api({ method: 'POST', path, token, body });
  const drainToWorker = async () => {
    const bodies = await w.drain('imports');
    if (bodies.length > 0) {
      const out = await worker(sqsEvent(bodies, 'imports'));
      expect(out.batchItemFailures).toEqual([]);
    }
  };
  return {
    ...w,
    get,
    post,
    work: drainToWorker,
    workOn: async (message) => {
      const out = await worker(sqsEvent([JSON.stringify(message)], 'imports'));
      expect(out.batchItemFailures).toEqual([]);
    },
    upload: async (token, type, fileName, bytes) => {
      const ticket = await get(
        token,
        `/imports/upload-url?type=${type}&fileName=${encodeURIComponent(fileName)}&size=${bytes.length}`,
      );
      expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
      const put = await fetch(String(ticket.body.url), {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from(bytes),
      });
      expect(put.status).toBe(200);
      const id = String(ticket.body.id);
      const key = new URL(String(ticket.body.url)).pathname.split('/').slice(2).join('/');
      const event = {
        Records: [
          {
            eventName: 'ObjectCreated:Put',
            s3: {
              bucket: { name: 'voltfolio-uploads' },
              object: { key: decodeURIComponent(key), size: bytes.length },
            },
          },
        ],
      };
      const out = await worker(sqsEvent([JSON.stringify(event)], 'imports'));
      expect(out.batchItemFailures).toEqual([]);
      return id;
    },
    run: async (token, id, action) => {
      const started = await post(token, `/imports/${id}/${action}`);
      if (started.status !== 202) return started;
      await drainToWorker();
      return get(token, `/imports/${id}`);
    },
  };
}

/** The owner's token and one site, Aldgate, under a new entity. */
async function ownerWithSite(w: ImportWorld): Promise<{ owner: string; siteId: string }> {
  const owner = w.token('owner');
  const entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  const siteId = await created(w.api, owner, '/assets', { siteName: 'Aldgate', entityId });
  return { owner, siteId };
}

/** An import world whose owner has made one site, Aldgate, with one meter on it. */
export async function startImportWorldWithMeter(meter: {
  type: 'electricity' | 'gas';
  meterPointNumber: string;
}): Promise<{ w: ImportWorld; owner: string; siteId: string; meterId: string }> {
  const w = await startImportWorld();
  const { owner, siteId } = await ownerWithSite(w);
  const meterId = await created(w.api, owner, '/accounts', {
    ...meter,
    assetId: siteId,
    name: `Aldgate ${meter.type}`,
  });
  return { w, owner, siteId, meterId };
}

export interface ManyMeterWorld {
  w: ImportWorld;
  owner: string;
  siteId: string;
  /** The meters in the order made: the i-th is named `${name} ${i + 1}`, as a file names it. */
  meterIds: string[];
  /** Electricity consumption in the months from..to: the meters' own months summed, their site's and the company's. */
  figures: (from: string, to: string) => Promise<{ meters: number; site: number; company: number }>;
}

export const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The lines of a wide half-hourly file (one row a meter-day, dates as DD/MM/YYYY) for the meters of
 * `startImportWorldWithMeters(count, name)`: meter i reads `reading(i)` in every settlement period. The
 * header has room for a clock-change day's 50 periods.
 */
export function wideHalfHourlyLines(
  name: string,
  count: number,
  dates: readonly string[],
  reading: (meter: number) => number,
): string[] {
  const header = ['MPAN', 'Date', ...Array.from({ length: 50 }, (_, i) => `HH${i + 1}`)];
  const lines = [header.join(',')];
  for (let m = 0; m < count; m++)
    for (const date of dates) {
      const values = Array.from({ length: settlementPeriods(date) }, () => String(reading(m)));
      lines.push(
        `${name} ${m + 1},${date.slice(8)}/${date.slice(5, 7)}/${date.slice(0, 4)},${values.join(',')}`,
      );
    }
  return lines;
}

/** Lines as a file's bytes, CRLF-ended. */
export const fileOf = (lines: readonly string[]) => new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
const sum = (rows: readonly { consumption: number }[]) =>
  round3(rows.reduce((n, r) => n + Number(r.consumption), 0));

/** An import world whose owner has made one site, Aldgate, with `count` electricity meters on it. */
export async function startImportWorldWithMeters(count: number, name: string): Promise<ManyMeterWorld> {
  const w = await startImportWorld();
  const { owner, siteId } = await ownerWithSite(w);
  const meterIds: string[] = [];
  for (let m = 0; m < count; m++)
    meterIds.push(
      await created(w.api, owner, '/accounts', {
        type: 'electricity',
        assetId: siteId,
        name: `${name} ${m + 1}`,
      }),
    );
  const figures = async (from: string, to: string) => ({
    meters: round3(
      (
        await Promise.all(meterIds.map(async (id) => sum(await listAccountMonths(w.demoId, id, from, to))))
      ).reduce((a, b) => a + b, 0),
    ),
    site: sum(await listAssetRollups(w.demoId, siteId, from, to)),
    company: sum(
      (await listCompanyRollups(w.demoId, from, to)).filter((r) => r.utilityType === 'electricity'),
    ),
  });
  return { w, owner, siteId, meterIds, figures };
}
