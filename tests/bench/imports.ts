/**
 * Spreadsheet imports at scale, against the in-process table and an S3 and SQS emulator, the worker run in
 * a process of its own so its memory is its own:
 *
 *   - 100,000 rows of monthly consumption (2,000 meters on 200 sites, 50 months each): dry run through
 *     the API, the import and its rollback in the worker;
 *   - a year of half-hourly data for 200 meters in the wide layout (73,000 rows of 46 to 50 values).
 *
 * The table emulator shares the test process's thread, so these are upper bounds for the real table.
 * The worker has the heap Lambda's runtime gives it (see `lambdaHeapFlags`).
 *
 *   node tests/bench/imports.ts [meters] [months] [monthly|half-hourly|both]
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { resourceRef } from '../../functions/core/resources/resource-refs.ts';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import { BUCKETS, QUEUES } from '../../shared/system/functions.ts';
import { createCompany, createOwner, startApiFixture } from '../support/api-fixture.ts';
import { httpEvent, lambdaContext, parseResult, type TestRequest } from '../support/http-events.ts';

const METERS = Number(process.argv[2] ?? 2000);
const MONTHS = Number(process.argv[3] ?? 50);
/** `monthly`, `half-hourly` or both (the default). */
const PART = process.argv[4] ?? 'both';
/** Meters of the half-hourly year: 200 as the issue has it (BENCH_HH_METERS for a larger file). */
const HH_METERS = Number(process.env.BENCH_HH_METERS ?? 200);
const run = promisify(execFile);

/**
 * The worker runs with the heap Lambda's Node.js runtime gives a function of its memory, so "under 512 MB"
 * is checked as Lambda would run it: the runtime's bootstrap (/var/runtime/bootstrap in the
 * public.ecr.aws/lambda/nodejs images, published in github.com/aws/aws-lambda-base-images) takes
 * new_space = MB / 10 and starts node with --max-semi-space-size = new_space / 2 and
 * --max-old-space-size = MB - new_space: 25 and 461 for 512 MB. A worker that needs more heap than that
 * dies here as it would there. The half-hourly file's target is 512 MB; the monthly file runs with the
 * worker's deployed 1024 MB. BENCH_WORKER_MB sets both (0: node's own heap sizing).
 */
const lambdaHeapFlags = (mb: number) => {
  // 0: node's own heap sizing, as a plain `node` run has it.
  if (mb === 0) return [];
  const newSpace = Math.floor(mb / 10);
  return [`--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${mb - newSpace}`];
};
const workerMb = (mb: number) => Number(process.env.BENCH_WORKER_MB ?? mb);

/** With BENCH_PROFILE=dir, this process's CPU profile (the table's work) while the worker runs a command. */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (name: string) => {
      const { profile } = await session.post('Profiler.stop');
      const dir = String(process.env.BENCH_PROFILE);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `table-${name}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const fx = await startApiFixture();
const aws = await startFauxqs({ port: 0, logger: false });
const clientOpts = {
  region: 'eu-west-2',
  endpoint: aws.address,
  credentials: { accessKeyId: 't', secretAccessKey: 't' },
};
const s3 = new S3Client({ ...clientOpts, forcePathStyle: true });
const sqs = new SQSClient(clientOpts);
try {
  for (const bucket of BUCKETS) {
    await s3.send(new CreateBucketCommand({ Bucket: `voltfolio-${bucket}` }));
    process.env[`BUCKET_${bucket.toUpperCase()}`] = `voltfolio-${bucket}`;
  }
  for (const queue of QUEUES) {
    await sqs.send(new CreateQueueCommand({ QueueName: queue }));
    process.env[`QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`] =
      `${aws.address}/000000000000/${queue}`;
  }
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: aws.address,
    AWS_ENDPOINT_URL_SQS: aws.address,
    S3_FORCE_PATH_STYLE: 'true',
    LIVE_ENDPOINT: 'http://127.0.0.1:9',
  });

  const companyId = await createCompany('Bench Estates');
  await createOwner('bench-owner', 'owner@bench.test', companyId);
  const token = fx.issuer.accessToken('bench-owner');
  type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
  const automation = (await import('../../functions/handlers/http/automation.ts'))
    .handler as unknown as Handler;
  const context = { ...lambdaContext('bench'), getRemainingTimeInMillis: () => 10 * 60_000 };
  const api = async (req: TestRequest) =>
    parseResult(
      (await automation(httpEvent({ ...req, token }), context)) as APIGatewayProxyStructuredResultV2,
    );

  /** Runs the worker on one message in a process of its own; answers its time and peak memory. */
  /** The worker's time, and the CPU it and the table emulator (this process) spent meanwhile. */
  const worker = async (body: string, profileAs?: string, mb = workerMb(1024)) => {
    const profiling = process.env.BENCH_PROFILE && profileAs ? await startProfile() : undefined;
    const tableCpu = process.cpuUsage();
    const { stdout } = await run(
      process.execPath,
      [...lambdaHeapFlags(mb), path.join(import.meta.dirname, 'imports-worker-process.ts'), body],
      {
        env: process.env,
        maxBuffer: 1 << 20,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      ms: number;
      peakRssMb: number;
      failures: number;
      cpuMs: number;
      tableCalls: Record<string, { n: number; avgMs: number }>;
    };
    const used = process.cpuUsage(tableCpu);
    if (profiling && profileAs) await profiling.stop(profileAs);
    if (out.failures > 0) throw new Error('The worker failed the message');
    const cpu = `CPU ${(out.cpuMs / 1000).toFixed(1)} s worker + ${((used.user + used.system) / 1e6).toFixed(1)} s table`;
    if (process.env.BENCH_CALLS) console.log(`  ${cpu}, table calls ${JSON.stringify(out.tableCalls)}`);
    return { ...out, cpu };
  };
  const nextMessage = async () => {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: process.env.QUEUE_URL_IMPORTS, MaxNumberOfMessages: 1 }),
    );
    const message = out.Messages?.[0];
    if (!message?.Body) throw new Error('No message was queued');
    // Taken off the queue, so a long run does not see it again when its visibility runs out.
    await sqs.send(
      new DeleteMessageCommand({
        QueueUrl: process.env.QUEUE_URL_IMPORTS,
        ReceiptHandle: message.ReceiptHandle,
      }),
    );
    return message.Body;
  };

  // 200 sites with their meters, written as the seed writes them.
  const now = new Date().toISOString();
  const sites = Array.from({ length: 200 }, () => newId());
  for (const [i, id] of sites.entries())
    await putItem(resourceRef(companyId, 'assets'), {
      _id: id,
      companyId,
      siteName: `Bench Site ${i}`,
      createdAt: now,
      updatedAt: now,
    });
  const meterCount = Math.max(METERS, HH_METERS);
  for (let i = 0; i < meterCount; i++)
    await putItem(resourceRef(companyId, 'accounts'), {
      _id: newId(),
      companyId,
      type: 'electricity',
      name: `Bench meter ${i}`,
      meterPointNumber: `BM${String(i).padStart(6, '0')}`,
      assetId: sites[i % sites.length],
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });

  const upload = async (type: string, name: string, text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    const ticket = await api({
      method: 'GET',
      path: `/imports/upload-url?type=${type}&fileName=${name}&size=${bytes.length}`,
    });
    if (ticket.status !== 201) throw new Error(`upload-url: ${ticket.status} ${JSON.stringify(ticket.body)}`);
    const id = String(ticket.body.id);
    const key = `imports/${companyId}/${id}/${name}`;
    // In 5 MB parts, as a browser's large upload would go: the emulator refuses one very large body.
    const Bucket = 'voltfolio-uploads';
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
    const parts: { ETag?: string; PartNumber: number }[] = [];
    for (let at = 0, n = 1; at < bytes.length; at += 5 * 1024 * 1024, n++) {
      const part = await s3.send(
        new UploadPartCommand({
          Bucket,
          Key: key,
          UploadId,
          PartNumber: n,
          Body: bytes.subarray(at, at + 5 * 1024 * 1024),
        }),
      );
      parts.push({ ETag: part.ETag, PartNumber: n });
    }
    await s3.send(
      new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
    );
    await worker(
      JSON.stringify({
        Records: [
          {
            eventName: 'ObjectCreated:Put',
            s3: { bucket: { name: 'voltfolio-uploads' }, object: { key, size: bytes.length } },
          },
        ],
      }),
    );
    return { id, mb: bytes.length / 1024 / 1024 };
  };
  const status = async (id: string) => (await api({ method: 'GET', path: `/imports/${id}` })).body;

  // Monthly consumption.
  if (PART !== 'half-hourly') {
    const lines = ['MPAN,Month,Consumption kWh,Cost'];
    for (let m = 0; m < METERS; m++)
      for (let k = 0; k < MONTHS; k++) {
        const month = `${2021 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
        lines.push(
          `BM${String(m).padStart(6, '0')},${month},${1000 + ((m * 7 + k) % 500)},£${(200 + (k % 50)).toFixed(2)}`,
        );
      }
    const monthly = await upload('monthly-consumption', 'monthly.csv', `${lines.join('\r\n')}\r\n`);
    const t = performance.now();
    const preview = await api({ method: 'POST', path: `/imports/${monthly.id}/preview` });
    const previewMs = performance.now() - t;
    if (preview.status !== 200) throw new Error(`preview: ${preview.status} ${JSON.stringify(preview.body)}`);
    if (await api({ method: 'POST', path: `/imports/${monthly.id}/import` }).then((r) => r.status !== 202))
      throw new Error('import refused');
    const imported = await worker(await nextMessage(), 'import');
    const importState = await status(monthly.id);
    if (await api({ method: 'POST', path: `/imports/${monthly.id}/rollback` }).then((r) => r.status !== 202))
      throw new Error('rollback refused');
    const undone = await worker(await nextMessage(), 'rollback');
    const rollbackState = await status(monthly.id);
    console.log(
      `monthly consumption: ${lines.length - 1} rows (${monthly.mb.toFixed(1)} MB): preview ${previewMs.toFixed(0)} ms ` +
        `(${JSON.stringify(preview.body.totals)}), import ${imported.ms.toFixed(0)} ms (${importState.status}, ${imported.cpu}, worker peak ${imported.peakRssMb.toFixed(0)} MB), ` +
        `rollback ${undone.ms.toFixed(0)} ms (${rollbackState.status}, ${undone.cpu}, ${JSON.stringify(rollbackState.rollback)}); ` +
        `load average ${loadavg()[0]?.toFixed(1)}`,
    );
  }

  // A year of half-hourly data, wide.
  if (PART !== 'monthly') {
    const header = ['MPAN', 'Date', ...Array.from({ length: 50 }, (_, i) => `HH${i + 1}`)];
    const wide = [header.join(',')];
    for (let m = 0; m < HH_METERS; m++) {
      for (let d = 0; d < 365; d++) {
        const date = new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10);
        const n = settlementPeriods(date);
        const values = Array.from({ length: n }, (_, i) => ((m + i + d) % 17) / 4);
        wide.push(
          `BM${String(m).padStart(6, '0')},${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)},${values.join(',')}`,
        );
      }
    }
    const insights = (await import('../../functions/handlers/http/insights.ts'))
      .handler as unknown as Handler;
    const reads = new Map<string, number>();
    documentClient().middlewareStack.add(
      (next, ctx) => async (args) => {
        const name = String(ctx.commandName ?? '?');
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'benchDailyReads' },
    );
    const daily = '/analytics/v2/consumption?startDate=2025-01-01&endDate=2025-12-31&granularity=daily';
    const readDaily = async (which: string) => {
      reads.clear();
      const t = performance.now();
      const res = parseResult(
        (await insights(
          httpEvent({ method: 'GET', path: daily, token }),
          context,
        )) as APIGatewayProxyStructuredResultV2,
      );
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`daily: ${res.status} ${JSON.stringify(res.body)}`);
      console.log(
        `  company-wide daily 2025, ${which}: ${ms.toFixed(0)} ms, ${(res.body.buckets as unknown[]).length} days, ` +
          `table calls ${JSON.stringify(Object.fromEntries(reads))}; load average ${loadavg()[0]?.toFixed(1)}`,
      );
    };
    // The meters' data began the day before: the company's daily sums of 2025 are kept from a read then.
    const eve = [header.join(',')];
    for (let m = 0; m < HH_METERS; m++)
      eve.push(
        `BM${String(m).padStart(6, '0')},31/12/2024,${Array.from({ length: 48 }, () => '1').join(',')}`,
      );
    const first = await upload('half-hourly-wide', 'hh-eve.csv', `${eve.join('\r\n')}\r\n`);
    if (await api({ method: 'POST', path: `/imports/${first.id}/import` }).then((r) => r.status !== 202))
      throw new Error('hh eve import refused');
    await worker(await nextMessage(), undefined, workerMb(512));
    await readDaily('read before the year is imported');

    const t = performance.now();
    const hh = await upload('half-hourly-wide', 'hh.csv', `${wide.join('\r\n')}\r\n`);
    const hhPreview = await api({ method: 'POST', path: `/imports/${hh.id}/preview` });
    const hhPreviewMs = performance.now() - t;
    if (hhPreview.status !== 200)
      throw new Error(`hh preview: ${hhPreview.status} ${JSON.stringify(hhPreview.body)}`);
    if (await api({ method: 'POST', path: `/imports/${hh.id}/import` }).then((r) => r.status !== 202))
      throw new Error('hh import refused');
    const hhMb = workerMb(512);
    const hhImported = await worker(await nextMessage(), undefined, hhMb);
    console.log(
      `half-hourly wide: ${wide.length - 1} rows (${hh.mb.toFixed(1)} MB): upload, first read and preview ${hhPreviewMs.toFixed(0)} ms ` +
        `(${JSON.stringify(hhPreview.body.totals)}), import ${hhImported.ms.toFixed(0)} ms (${(await status(hh.id)).status}, ${hhImported.cpu}), worker peak ${hhImported.peakRssMb.toFixed(0)} MB ` +
        `${hhMb > 0 ? `with the heap of a ${hhMb} MB Lambda` : "with node's own heap sizing"}; load average ${loadavg()[0]?.toFixed(1)}`,
    );

    // The company-wide daily figures of the year just imported: the first read after an interval write
    // used to sum every meter's day totals again.
    await readDaily('first read after the import');
    await readDaily('second read');
  }
} finally {
  s3.destroy();
  sqs.destroy();
  await aws.stop();
  await fx.stop();
}
