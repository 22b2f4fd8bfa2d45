import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listIntervalDays } from '../../functions/analytics/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import {
  fileOf,
  type ImportWorld,
  round3,
  startImportWorldWithMeters,
  wideHalfHourlyLines,
} from './imports-support.ts';

/**
 * A wide half-hourly file (one row a meter-day) is judged and written a part at a time, so the worker
 * holds a part of the file rather than all of it: a year of 20 meters is 7,300 rows, more than a part.
 * What a part writes is journalled before it is written, so a worker that dies in a later part loses
 * nothing when SQS delivers the message again, and a file found unreadable partway changes nothing.
 */
let w: ImportWorld;
let owner: string;
let meterIds: string[];
let figures: () => Promise<{ meters: number; site: number; company: number }>;
const METERS = 20;
const DAYS = 365;

const dates = Array.from({ length: DAYS }, (_, d) =>
  new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10),
);
/** Meter i's reading in every half hour: its whole year is this times the year's settlement periods. */
const reading = (i: number) => 0.25 * (i + 1);
const periodsInYear = dates.reduce((n, d) => n + settlementPeriods(d), 0);
const wholeYear = round3(
  Array.from({ length: METERS }, (_, i) => reading(i) * periodsInYear).reduce((a, b) => a + b, 0),
);

function wideFile(broken = false): Uint8Array {
  const lines = wideHalfHourlyLines('Part meter', METERS, dates, reading);
  // A quote never closed, well after the first part: the file cannot be read to its end.
  if (broken) lines.splice(lines.length - 10, 0, 'Part meter 20,"31/12/2026,1');
  return fileOf(lines);
}

/** Runs the worker on a message, watching its table calls; from the one `dies` picks, nothing lands. */
async function watch(body: string, dies: (command: unknown) => boolean = () => false) {
  const client = documentClient();
  const send = client.send.bind(client);
  let dead = false;
  const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (!dead && dies(command)) dead = true;
    if (dead) return new Promise<never>(() => undefined);
    return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as typeof client.send);
  return {
    dead: () => dead,
    run: () => w.workOn(JSON.parse(body) as Record<string, unknown>),
    stop: () => spy.mockRestore(),
  };
}

/** The rows of a batch write's items: `sk` and, for journal pages, how many entries each holds. */
const itemsOf = (command: unknown) =>
  command instanceof BatchWriteCommand
    ? Object.values(command.input.RequestItems ?? {}).flatMap((requests) =>
        requests.flatMap((r) => (r.PutRequest?.Item ? [r.PutRequest.Item] : [])),
      )
    : [];
const writesDaysOf = (command: unknown, accountId?: string) =>
  itemsOf(command).some(
    (item) =>
      String(item.pk).endsWith(accountId ? `#interval#${accountId}` : '') &&
      String(item.pk).includes('#interval#'),
  );

beforeAll(async () => {
  const world = await startImportWorldWithMeters(METERS, 'Part meter');
  ({ w, owner, meterIds } = world);
  figures = () => world.figures('2026-01', '2026-12');
}, 120_000);
afterAll(() => w?.stop());

describe('a wide half-hourly file larger than a part', () => {
  it('journals and writes its first part before the rest is judged, and a worker dying in a later part loses nothing', async () => {
    const id = await w.upload(owner, 'half-hourly-wide', 'year.csv', wideFile());
    expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
    const [body] = await w.drain('imports');

    // The worker dies as it writes the days of the file's last meter, in its second part.
    let journalled = 0;
    let journalledAtFirstDay: number | undefined;
    const last = meterIds.at(-1) as string;
    const worker = await watch(body as string, (c) => {
      for (const item of itemsOf(c))
        if (String(item.sk).startsWith('journal#'))
          journalled += (JSON.parse(String(item.rowsJson)) as unknown[]).length;
      if (journalledAtFirstDay === undefined && writesDaysOf(c)) journalledAtFirstDay = journalled;
      return writesDaysOf(c, last);
    });
    try {
      void worker.run();
      await vi.waitFor(() => expect(worker.dead()).toBe(true), { timeout: 60_000 });
    } finally {
      worker.stop();
    }
    // Its first days were written with only their part journalled, not the whole file's 7,300 days.
    expect(journalledAtFirstDay).toBeGreaterThan(0);
    expect(journalledAtFirstDay).toBeLessThan(METERS * DAYS);
    expect(journalled).toBe(METERS * DAYS);

    await w.workOn(JSON.parse(body as string) as Record<string, unknown>);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: METERS * DAYS, create: METERS * DAYS, update: 0, unchanged: 0, error: 0 },
    });
    expect(await figures()).toEqual({ meters: wholeYear, site: wholeYear, company: wholeYear });
    expect(await listIntervalDays(w.demoId, last, '2026-01-01', '2026-12-31')).toHaveLength(DAYS);

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: METERS * DAYS, restored: 0 },
    });
    expect(await figures()).toEqual({ meters: 0, site: 0, company: 0 });
  }, 180_000);

  it('changes nothing when the file turns out unreadable after its first part was written', async () => {
    const id = await w.upload(owner, 'half-hourly-wide', 'broken.csv', wideFile(true));
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'error' });
    expect(String(done.body.error)).toMatch(/quoted value is never closed/);
    expect(await figures()).toEqual({ meters: 0, site: 0, company: 0 });
    const first = meterIds[0] as string;
    const days = await listIntervalDays(w.demoId, first, '2026-01-01', '2026-12-31');
    expect(days.every((d) => d.values.every((v) => v === null))).toBe(true);
  }, 180_000);
});
