import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { expect, vi } from 'vitest';
import { consumptionKeys } from '../../functions/accounts/consumption-repository.ts';
import {
  allAccounts,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
  listWholeSiteYears,
  ROLLUP_SOURCES,
  type Rollup,
  type RollupSource,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { sqsEvent } from './invoices-support.ts';
import { created } from './register-support.ts';

/**
 * The world the import crash and race tests share: one site, Aldgate, with one meter, in one portfolio;
 * and the checks that every level of roll-up a month reaches comes to the sum of the months.
 */
export interface MeterWorld {
  w: ImportWorld;
  owner: string;
  siteId: string;
  meterId: string;
  groupId: string;
  utility: 'electricity' | 'gas';
}

export async function startMeterWorld(
  meter: { type: 'electricity' | 'gas'; meterPointNumber: string },
  portfolio = 'City',
): Promise<MeterWorld> {
  const { w, owner, siteId, meterId } = await startImportWorldWithMeter(meter);
  const groupId = await created(w.api, owner, '/asset-groups', { name: portfolio, assetIds: [siteId] });
  // A tenant's meter: every level's split by meter user must come to its months too.
  const user = await w.api({
    method: 'PATCH',
    path: `/accounts/${meterId}`,
    token: owner,
    body: { meterUser: 'tenant' },
  });
  expect(user.status).toBe(200);
  return { w, owner, siteId, meterId, groupId, utility: meter.type };
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

const round3 = (v: number) => Math.round(v * 1000) / 1000;

export interface Figures {
  consumption: number;
  cost: number;
  emissionsKg: number;
}

/** To the gram and the penny, and a taken-away -0 as 0. */
export const sumFigures = (
  rows: readonly { consumption: number; cost: number; emissionsKg?: number }[],
): Figures => ({
  consumption: round3(rows.reduce((n, r) => n + Number(r.consumption), 0)) + 0,
  cost: Math.round(rows.reduce((n, r) => n + Number(r.cost), 0) * 100) / 100 + 0,
  emissionsKg: round3(rows.reduce((n, r) => n + Number(r.emissionsKg ?? 0), 0)) + 0,
});

/** A roll-up's part of one source or meter user, summed like the figures. */
const partOf = (rows: readonly Rollup[], group: string) =>
  sumFigures(
    rows.map((r) => {
      const v = (m: string) => Number((r as unknown as Record<string, unknown>)[`${group}_${m}`] ?? 0);
      return { consumption: v('consumption'), cost: v('cost'), emissionsKg: v('emissionsKg') };
    }),
  );

/**
 * Each source's part, all sources' together and the tenant's part (the meter is a tenant's) of some
 * roll-ups. A month a bill reached after an import keeps both parts, so only levels are compared by
 * source; their sum and the tenant's part come to the months.
 */
export type Split = Record<RollupSource | 'sources' | 'tenant', Figures>;
const splitOfRollups = (rows: readonly Rollup[]): Split => {
  const bySource = ROLLUP_SOURCES.map((g) => partOf(rows, g));
  return Object.fromEntries([
    ...ROLLUP_SOURCES.map((g, i) => [g, bySource[i]]),
    ['sources', sumFigures(bySource)],
    ['tenant', partOf(rows, 'tenant')],
  ]) as Split;
};

/** The sums of every level a month of the meter reaches, from January of `from` to December of `to`. */
export interface Levels {
  /** The meter's months. */
  months: Figures;
  site: Figures;
  portfolio: Figures;
  /** The company's roll-ups of the meter's utility. */
  company: Figures;
  /** The months of every meter of the company (of any utility, as the company roll-ups sum them). */
  companyMonths: Figures;
  /** The company's roll-ups of every utility. */
  companyAll: Figures;
  siteYear: Figures;
  wholeYear: Figures;
  /** The split by source and meter user of the months, and of the site's, portfolio's and company's roll-ups. */
  split: { site: Split; portfolio: Split; company: Split };
}

export async function levels(world: MeterWorld, from: number, to: number): Promise<Levels> {
  const { w, siteId, meterId, groupId, utility } = world;
  const first = `${from}-01`;
  const last = `${to}-12`;
  const ofSite = (y: { assetId: string; utilityType: string }) =>
    y.assetId === siteId && y.utilityType === utility;
  const everyMonth = [];
  for (const account of await allAccounts(w.demoId))
    everyMonth.push(...(await listAccountMonths(w.demoId, account._id, first, last)));
  const company = await listCompanyRollups(w.demoId, first, last);
  const months = await listAccountMonths(w.demoId, meterId, first, last);
  const site = await listAssetRollups(w.demoId, siteId, first, last);
  const portfolio = await listPortfolioRollups(w.demoId, groupId, first, last);
  const ofUtility = company.filter((r) => r.utilityType === utility);
  return {
    months: sumFigures(months),
    site: sumFigures(site),
    portfolio: sumFigures(portfolio),
    company: sumFigures(ofUtility),
    split: {
      site: splitOfRollups(site),
      portfolio: splitOfRollups(portfolio),
      company: splitOfRollups(ofUtility),
    },
    companyMonths: sumFigures(everyMonth),
    companyAll: sumFigures(company),
    siteYear: sumFigures((await listSiteYears(w.demoId, from, to)).filter(ofSite)),
    wholeYear: sumFigures((await listWholeSiteYears(w.demoId, from, to)).filter(ofSite)),
  };
}

/**
 * Every level against the months it is made of: the site, its portfolio, its years and the company's
 * roll-ups of the utility come to the meter's months (the world's only meter of it); the company's of
 * every utility to every meter's.
 */
export async function expectLevelsEqualMonths(world: MeterWorld, from: number, to = from): Promise<Levels> {
  const found = await levels(world, from, to);
  const { months, companyMonths, companyAll } = found;
  expect({
    site: found.site,
    portfolio: found.portfolio,
    company: found.company,
    siteYear: found.siteYear,
    wholeYear: found.wholeYear,
  }).toEqual({ site: months, portfolio: months, company: months, siteYear: months, wholeYear: months });
  expect(companyAll).toEqual(companyMonths);
  // The split by source and by meter user each roll-up keeps moves with it, crashes and races included.
  const { split } = found;
  expect({ portfolio: split.portfolio, company: split.company }).toEqual({
    portfolio: split.site,
    company: split.site,
  });
  expect({ sources: split.site.sources, tenant: split.site.tenant }).toEqual({
    sources: months,
    tenant: months,
  });
  return found;
}

/** A level's consumption and cost, without its emissions. */
export const use = (f: Figures) => ({ consumption: f.consumption, cost: f.cost });

/**
 * Every level holds the given consumption and cost, and each level's emissions are its months'.
 */
export async function expectEveryLevel(
  world: MeterWorld,
  from: number,
  to: number,
  figures: { consumption: number; cost: number },
): Promise<Levels> {
  const found = await expectLevelsEqualMonths(world, from, to);
  expect(use(found.months)).toEqual(figures);
  return found;
}

const isMonthPk = (pk: unknown) => String(pk).includes('#consumption#');

/** Whether a command writes or removes a meter's month (not a roll-up, and not a restatement's update). */
export const writesMonth = (c: unknown) => {
  if (c instanceof BatchWriteCommand)
    return Object.values(c.input.RequestItems ?? {})
      .flat()
      .some((r) => isMonthPk(r.DeleteRequest?.Key?.pk ?? r.PutRequest?.Item?.pk));
  if (c instanceof TransactWriteCommand)
    return (c.input.TransactItems ?? []).some((t) => isMonthPk(t.Delete?.Key?.pk ?? t.Put?.Item?.pk));
  if (c instanceof DeleteCommand) return isMonthPk(c.input.Key?.pk);
  if (c instanceof PutCommand) return isMonthPk(c.input.Item?.pk);
  return false;
};

/** A write of the world's meter's months: an import's and a rollback's go a hundred to a transaction. */
export const writesMeterMonths = (world: MeterWorld) => (c: unknown) =>
  c instanceof TransactWriteCommand &&
  (c.input.TransactItems ?? []).some(
    (t) =>
      String((t.Put?.Item ?? t.Delete?.Key)?.pk) ===
      consumptionKeys.accountMonths(world.w.demoId, world.meterId),
  );

/** A roll-up write: an add to a site's, portfolio's or company's months, or to a site's year. */
export const writesRollup = (c: unknown) =>
  (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
  (c instanceof TransactWriteCommand &&
    (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#')));

/** Dies on the `after + 1`th command `matches` says yes to: the first `after` land. */
export const onThe = (after: number, matches: (c: unknown) => boolean) => {
  let seen = 0;
  return (c: unknown) => matches(c) && ++seen > after;
};

export type Restater = (event: ReturnType<typeof sqsEvent>) => Promise<SQSBatchResponse>;

export async function restater(): Promise<Restater> {
  return (await import('../../functions/handlers/queue/restatements.ts')).handler as unknown as Restater;
}

/**
 * Queues a restatement and runs `deliveries` deliveries of it, each dying on its first roll-up write (the
 * months are restated, each recording the job's change, and none of it reaches the roll-ups); the third
 * delivery goes to the DLQ and the job fails for good. Answers the job and its message, for a later
 * delivery.
 */
export async function dyingRestatement(
  world: MeterWorld,
  factorSet: string,
  deliveries: number,
): Promise<{ jobId: string; bodies: string[] }> {
  const { w, owner } = world;
  const started = await w.post(owner, '/analytics/factor-sets/restate', { factorSet });
  expect(started.status).toBe(202);
  const bodies = await w.drain('restatements');
  const worker = await restater();
  const client = documentClient();
  const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
  const died = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (command instanceof UpdateCommand && String(command.input.Key?.pk).includes('#rollup#'))
      return Promise.reject(new Error('worker died'));
    return send(command, ...rest);
  }) as typeof client.send);
  try {
    for (let receiveCount = 1; receiveCount <= deliveries; receiveCount++)
      expect((await worker(delivery(bodies, receiveCount))).batchItemFailures).toHaveLength(1);
  } finally {
    died.mockRestore();
  }
  return { jobId: String(started.body.jobId), bodies };
}

/** The restatements queue's messages as SQS hands them over for the `receiveCount`th time. */
export function delivery(bodies: readonly string[], receiveCount: number) {
  const event = sqsEvent([...bodies], 'restatements');
  for (const r of event.Records) r.attributes.ApproximateReceiveCount = String(receiveCount);
  return event;
}

/** Runs a restatement whose every delivery dies on its first roll-up write, until it has failed for good. */
export async function failRestatement(world: MeterWorld, factorSet: string): Promise<string> {
  const { jobId } = await dyingRestatement(world, factorSet, 3);
  expect((await world.w.get(world.owner, `/analytics/factor-sets/restatements/${jobId}`)).body).toMatchObject(
    {
      status: 'failed',
    },
  );
  return jobId;
}

/** Runs a restatement whole, and answers its job as the API shows it. */
export async function restate(world: MeterWorld, factorSet: string): Promise<Record<string, unknown>> {
  const { w, owner } = world;
  const started = await w.post(owner, '/analytics/factor-sets/restate', { factorSet });
  expect(started.status).toBe(202);
  const worker = await restater();
  expect((await worker(sqsEvent(await w.drain('restatements'), 'restatements'))).batchItemFailures).toEqual(
    [],
  );
  return (await w.get(owner, `/analytics/factor-sets/restatements/${String(started.body.jobId)}`)).body;
}

/**
 * Runs `work`, and `act` once, whole, just before the first command `matches` says yes to is sent (as
 * another worker landing between a read and a write): answers what `act` answered, or undefined if it
 * never ran.
 */
export async function landingBefore<T>(
  matches: (c: unknown) => boolean,
  act: () => Promise<T>,
  work: () => Promise<unknown>,
): Promise<T | undefined> {
  const client = documentClient();
  const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
  let acting: Promise<T> | undefined;
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
    if (matches(command)) {
      acting ??= act();
      await acting;
    }
    return send(command, ...rest);
  }) as typeof client.send);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return acting;
}
