/**
 * `./node_modules/.bin/node tests/bench/search.ts` (Node 24): global search on a large company, through the
 * real HTTP function. Seeds one company with 10,000 assets and 30,000 accounts into a fresh in-memory table (dynalite), builds
 * its search index, then times a few hundred searches of the kinds people type (site names, towns,
 * postcodes, meter point numbers, partial words) one after another. The target: p95 ≤ 100 ms.
 * BENCH_ASSETS, BENCH_ACCOUNTS_PER_ASSET and BENCH_QUERIES change the size.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { rebuildSearchIndex } from '../../functions/core/search-index/search-index-service.ts';
import { createPrng } from '../../infra/local/seed/prng.ts';
import { createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import { httpEvent, lambdaContext } from '../support/http-events.ts';
import { KINDS, seedLargeCompany, TOWNS } from './large-company.ts';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 10_000);
const ACCOUNTS_PER_ASSET = Number(process.env.BENCH_ACCOUNTS_PER_ASSET ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 400);
const P95_LIMIT_MS = 100;

const rng = createPrng('search-bench');
type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

async function main() {
  const fx = await startApiFixture();
  const { handler } = (await import('../../functions/handlers/http/util.ts')) as unknown as {
    handler: HttpHandler;
  };
  const companyId = await createCompany('Large Estates plc');
  await createUser({
    sub: 'bench',
    email: 'bench@large.test',
    companyIds: [companyId],
    permissions: ['company_user'],
  });
  const token = fx.issuer.accessToken('bench');

  const { entities, assets, accounts, samples, seconds } = await seedLargeCompany({
    companyId,
    assets: ASSETS,
    accountsPerAsset: ACCOUNTS_PER_ASSET,
    rng,
  });
  console.log(
    `seeded ${entities.length} entities, ${assets.length} assets, ${accounts.length} accounts in ${seconds.toFixed(1)} s`,
  );
  const building = performance.now();
  const built = await rebuildSearchIndex(companyId);
  console.log(
    `indexed ${built.items} items as ${built.entries} index entries in ${((performance.now() - building) / 1000).toFixed(1)} s`,
  );

  const queries: string[] = [];
  for (let i = 0; queries.length < QUERIES; i++) {
    const site = rng.pick(samples.sites);
    const kind = i % 8;
    if (kind === 0) queries.push(site);
    else if (kind === 1) queries.push(site.slice(0, rng.int(3, 6)));
    else if (kind === 2) queries.push(rng.pick(samples.postcodes));
    else if (kind === 3) queries.push(rng.pick(samples.postcodes).slice(0, 4));
    else if (kind === 4) queries.push(rng.pick(samples.mpans));
    else if (kind === 5) queries.push(rng.pick(samples.mpans).slice(0, rng.int(4, 9)));
    else if (kind === 6) queries.push(rng.pick(TOWNS).slice(0, rng.int(3, 8)));
    else queries.push(`${rng.pick(KINDS)}`);
  }
  const call = async (query: string) => {
    const started = performance.now();
    const result = await handler(
      httpEvent({ method: 'GET', path: `/global-search/search?query=${encodeURIComponent(query)}`, token }),
      lambdaContext('util'),
    );
    const ms = performance.now() - started;
    const status = typeof result === 'object' ? result.statusCode : 200;
    if (status !== 200) throw new Error(`Search for ${query} answered ${status}`);
    const body = JSON.parse(typeof result === 'object' ? String(result.body) : result) as {
      results: unknown[];
    };
    return { ms, count: body.results.length };
  };
  for (const q of queries.slice(0, 20)) await call(q);

  const times: number[] = [];
  let empty = 0;
  for (const q of queries) {
    const { ms, count } = await call(q);
    times.push(ms);
    if (count === 0) empty++;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) =>
    times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] ?? Number.NaN;
  const p95 = at(95);
  console.log(
    `${times.length} searches (${empty} without results): p50 ${at(50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms, max ${at(100).toFixed(1)} ms`,
  );
  console.log(
    `${p95 <= P95_LIMIT_MS ? 'ok  ' : 'MISS'} search p95: ${p95.toFixed(1)} ms (target ≤ ${P95_LIMIT_MS} ms)`,
  );
  await fx.stop();
  process.exitCode = p95 <= P95_LIMIT_MS ? 0 : 1;
}

await main();
