/**
 * What authorisation costs each request, in microseconds: verifying the access token (JWKS already
 * fetched and cached), loading the caller (the 5 s cache warm, as for every request but the first few
 * seconds' one), the route decision, and, for a caller who holds grants rather than company-wide
 * rights, the item check: where the requested account sits, read from the table afresh for every
 * request (the account alone for a site grant; account, site and the entity tree for an entity grant). Also prints the size of the authorisation matrix test.
 *
 *   node tests/bench/auth-overhead.ts [iterations] [item-check iterations]
 */
import { DEMO_USERS } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';
import { createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';

const iterations = Number(process.argv[2] ?? 5000);
// Each item check reads the table a few times, so it runs fewer rounds for the same wall time.
const itemIterations = Number(process.argv[3] ?? Math.max(1, Math.floor(iterations / 10)));
const fx = await startApiFixture();
try {
  const { createTokenVerifier } = await import('../../functions/core/adapters/token-verifier.ts');
  const { loadCaller } = await import('../../functions/core/access/caller-service.ts');
  const { routeDecision } = await import('../../shared/access/route-rules.ts');
  const { RouteTable } = await import('../../shared/system/route-match.ts');

  const { enforceItemCheck } = await import('../../functions/core/access/item-access-service.ts');
  const { putItem } = await import('../../functions/core/data/item-repository.ts');
  const { keys } = await import('../../functions/core/data/keys.ts');
  const { findResource } = await import('../../shared/system/resources.ts');

  const companyId = await createCompany('Bench Estates');
  // A group, a subsidiary, one of its buildings and a supply there: the lineage an account check walks.
  const put = async (name: string, id: string, data: Record<string, unknown>) => {
    const decl = findResource(name);
    await putItem(
      { pk: keys.collection({ companyId }, name), indexes: decl?.indexes ?? [], searchFields: [] },
      { _id: id, companyId, ...data },
    );
  };
  const ids = {
    group: '0123456789abcdef01230001',
    subsidiary: '0123456789abcdef01230002',
    asset: '0123456789abcdef01234567',
    account: '0123456789abcdef01230003',
  };
  await put('entities', ids.group, { legalName: 'Bench Group plc' });
  await put('entities', ids.subsidiary, { legalName: 'Bench Retail Ltd', parentEntityId: ids.group });
  await put('assets', ids.asset, { siteName: 'Bench House', entityId: ids.subsidiary });
  await put('accounts', ids.account, {
    name: 'Bench House Electricity',
    type: 'electricity',
    assetId: ids.asset,
  });
  await createUser({
    sub: 'bench-user',
    email: 'bench@demo.test',
    companyIds: [companyId],
    grants: {
      entities: { read: [], write: [] },
      assets: { read: [ids.asset], write: [] },
      accounts: { read: [], write: [] },
    },
  });
  // A grant on the group reaches the supply through the whole lineage, so its check reads every step.
  await createUser({
    sub: 'bench-group-user',
    email: 'bench-group@demo.test',
    companyIds: [companyId],
    grants: {
      entities: { read: [ids.group], write: [] },
      assets: { read: [], write: [] },
      accounts: { read: [], write: [] },
    },
  });
  const token = fx.issuer.accessToken('bench-user');
  const verifier = createTokenVerifier();
  const table = new RouteTable(HTTP_ROUTES);
  const match = table.match('GET', '/assets/0123456789abcdef01234567');
  if (!match) throw new Error('no route for the benchmark request');

  // Warm: the JWKS fetch and the first caller load happen once per instance, not per request.
  await loadCaller((await verifier.verify(token)).sub);

  // A token seen for the first time is checked in full (signature, claims); the same token again is
  // answered from the warm function's memory until it expires. Both are timed.
  const fresh = Array.from({ length: Math.min(iterations, 2000) }, (_, i) =>
    fx.issuer.accessToken('bench-user', { claims: { jti: `bench-${i}` } }),
  );
  if (new Set(fresh).size !== fresh.length) throw new Error('the issuer gave the same token twice');
  let firstSightNs = 0n;
  for (const t of fresh) {
    const t0 = process.hrtime.bigint();
    await verifier.verify(t);
    firstSightNs += process.hrtime.bigint() - t0;
  }
  const firstSightUs = Number(firstSightNs) / fresh.length / 1000;

  const parts = { verify: 0n, caller: 0n, route: 0n };
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    const verified = await verifier.verify(token);
    const t1 = process.hrtime.bigint();
    const caller = await loadCaller(verified.sub, verified.groups);
    const t2 = process.hrtime.bigint();
    const decision = routeDecision(match.route, caller, match.params);
    const t3 = process.hrtime.bigint();
    if (!decision.ok) throw new Error('the benchmark caller was refused');
    parts.verify += t1 - t0;
    parts.caller += t2 - t1;
    parts.route += t3 - t2;
  }
  // The item check of a grant holder: a fresh resolver per request, as the API builds one per request.
  const account = table.match('GET', `/accounts/${ids.account}`);
  const check = account?.route.item;
  if (!account || !check) throw new Error('no item-checked route for the benchmark account');
  const timeItemCheck = async (sub: string) => {
    const holder = await loadCaller(sub);
    await enforceItemCheck(check, holder, account.params);
    let ns = 0n;
    for (let i = 0; i < itemIterations; i++) {
      const t0 = process.hrtime.bigint();
      await enforceItemCheck(check, holder, account.params);
      ns += process.hrtime.bigint() - t0;
    }
    return Number(ns) / itemIterations / 1000;
  };
  const itemUs = await timeItemCheck('bench-user');
  const entityItemUs = await timeItemCheck('bench-group-user');

  const us = (ns: bigint) => Number(ns) / iterations / 1000;
  const total = us(parts.verify + parts.caller + parts.route);
  console.log(`authorisation overhead per request (${iterations} requests, mean):`);
  console.log(
    `  token verify, first sight   ${firstSightUs.toFixed(1)} µs   (signature and claims, JWKS cached)`,
  );
  console.log(`  token verify, remembered    ${us(parts.verify).toFixed(1)} µs`);
  console.log(`  caller load (5 s cache)     ${us(parts.caller).toFixed(1)} µs`);
  console.log(`  route decision              ${us(parts.route).toFixed(2)} µs`);
  console.log(`  total                       ${total.toFixed(1)} µs`);
  console.log(
    `  item check, site grant      ${itemUs.toFixed(1)} µs   (${itemIterations} requests: the account alone, from the table)`,
  );
  console.log(
    `  item check, group grant     ${entityItemUs.toFixed(1)} µs   (account → site → entity tree, from the table)`,
  );
  console.log(
    `  total with the item check   ${(total + itemUs).toFixed(1)} to ${(total + entityItemUs).toFixed(1)} µs`,
  );
  console.log(
    `authorisation matrix: ${HTTP_ROUTES.length} routes × ${DEMO_USERS.length} demo users = ${HTTP_ROUTES.length * DEMO_USERS.length} calls`,
  );
} finally {
  await fx.stop();
}
