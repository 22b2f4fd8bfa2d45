import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startFauxqs } from 'fauxqs';
import { applyEnvironment, localBucketName, localEnvironment } from '../../infra/local/environment.ts';
import type { SeedResult } from '../../infra/local/seed/seed.ts';
import { BUCKETS } from '../../shared/system/functions.ts';
import { startTestTable } from '../support/dynamo.ts';

export type Item = Record<string, unknown> & { pk: string; sk: string; _id?: string };

export interface SeededStack {
  result: SeedResult;
  seedMs: number;
  stateDir: string;
  /** The S3 emulator's endpoint */
  awsEndpoint: string;
  /** Every item of the table after seeding */
  all: Item[];
  demoId: string;
  northwindId: string;
  inPartition(pk: string): Item[];
  stop(): Promise<void>;
}

/**
 * DynamoDB (dynalite) and S3 (fauxqs) emulators with the product's table and buckets, the environment the
 * local stack gives the functions, and the demo data seeded into them.
 */
export async function startSeededStack(): Promise<SeededStack> {
  const table = await startTestTable('voltfolio');
  const fauxqs = await startFauxqs({ port: 0, logger: false });
  const awsEndpoint = `http://127.0.0.1:${fauxqs.port}`;
  for (const bucket of BUCKETS) fauxqs.createBucket(localBucketName(bucket));
  const stateDir = await mkdtemp(join(tmpdir(), 'voltfolio-seed-'));
  const origin = 'http://localhost:3999';
  // Configuration is read once per process, so the environment must be in place before the seed loads.
  applyEnvironment(localEnvironment({ origin, dynamoEndpoint: table.endpoint, awsEndpoint }, 'warn'));
  const { seedDemoData } = await import('../../infra/local/seed/seed.ts');
  const { documentClient } = await import('../../functions/core/adapters/dynamo.ts');

  const started = performance.now();
  const result = await seedDemoData({ stateDir, origin });
  const seedMs = performance.now() - started;
  console.log(`Seeded in ${Math.round(seedMs)} ms:`, JSON.stringify(result.counts));

  const all: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: 'voltfolio', ExclusiveStartKey: startKey }),
    );
    all.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const companyId = (name: string) => {
    const id = result.companies.find((c) => c.name === name)?.id;
    if (!id) throw new Error(`The seed made no company ${name}`);
    return id;
  };
  return {
    result,
    seedMs,
    stateDir,
    awsEndpoint,
    all,
    demoId: companyId('Demo Estates Ltd'),
    northwindId: companyId('Northwind Property Co'),
    inPartition: (pk) => all.filter((i) => i.pk === pk),
    stop: async () => {
      await fauxqs.stop();
      await table.stop();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** YYYY-MM of the last complete month. */
export function lastCompleteMonth(today = new Date()): string {
  const m = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
}
