/**
 * What authorisation costs each request, in microseconds: verifying the access token (JWKS already
 * fetched and cached), loading the caller (the 5 s cache warm, as for every request but the first few
 * seconds' one), and the route decision. Also prints the size of the authorisation matrix test.
 *
 *   node tests/bench/auth-overhead.ts [iterations]
 */
import { DEMO_USERS } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';
import { createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';

const iterations = Number(process.argv[2] ?? 5000);
const fx = await startApiFixture();
try {
  const { createTokenVerifier } = await import('../../functions/adapters/token-verifier.ts');
  const { loadCaller } = await import('../../functions/services/caller-service.ts');
  const { routeDecision } = await import('../../shared/access/route-rules.ts');
  const { RouteTable } = await import('../../shared/system/route-match.ts');

  const companyId = await createCompany('Bench Estates');
  await createUser({
    sub: 'bench-user',
    email: 'bench@demo.test',
    companyIds: [companyId],
    grants: {
      entities: { read: [], write: [] },
      assets: { read: ['0123456789abcdef01234567'], write: [] },
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
  const us = (ns: bigint) => Number(ns) / iterations / 1000;
  const total = us(parts.verify + parts.caller + parts.route);
  console.log(`authorisation overhead per request (${iterations} requests, mean):`);
  console.log(`  token verify (cached JWKS)  ${us(parts.verify).toFixed(1)} µs`);
  console.log(`  caller load (5 s cache)     ${us(parts.caller).toFixed(1)} µs`);
  console.log(`  route decision              ${us(parts.route).toFixed(2)} µs`);
  console.log(`  total                       ${total.toFixed(1)} µs`);
  console.log(
    `authorisation matrix: ${HTTP_ROUTES.length} routes × ${DEMO_USERS.length} demo users = ${HTTP_ROUTES.length * DEMO_USERS.length} calls`,
  );
} finally {
  await fx.stop();
}
