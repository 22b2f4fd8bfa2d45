/**
 * How long a CSV import of sites and its rollback take through the assets function, against the
 * in-process table: the file checked, the sites written, indexed for search, then soft-deleted.
 * The table emulator runs on this process's thread, so these are upper bounds for the real table.
 *
 *   node tests/bench/imports.ts [rows]
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { toCsv } from '../../shared/files/csv.ts';
import { createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import { httpEvent, lambdaContext, parseResult, type TestRequest } from '../support/http-events.ts';

const rows = Number(process.argv[2] ?? 5000);
const fx = await startApiFixture();
try {
  const companyId = await createCompany('Bench Estates');
  await createUser({
    sub: 'bench-owner',
    email: 'owner@bench.test',
    companyIds: [companyId],
    permissions: ['company_owner', 'company_admin'],
  });
  const token = fx.issuer.accessToken('bench-owner');
  type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
  const entities = (await import('../../functions/handlers/http/entities.ts')).handler as unknown as Handler;
  const assets = (await import('../../functions/handlers/http/assets.ts')).handler as unknown as Handler;
  // No early timeout: the point is to see how long it takes, not whether it fits the gateway's 29 s.
  const context = { ...lambdaContext('bench'), getRemainingTimeInMillis: () => 10 * 60_000 };
  const api = async (req: TestRequest) => {
    const handler = req.path.startsWith('/assets') ? assets : entities;
    return parseResult((await handler(httpEvent(req), context)) as APIGatewayProxyStructuredResultV2);
  };
  const entity = await api({
    method: 'POST',
    path: '/entities',
    token,
    body: { legalName: 'Bench Estates Ltd' },
  });
  if (entity.status !== 201) throw new Error(`entity: ${entity.status}`);
  const csv = toCsv([
    ['siteName', 'entity', 'assetType', 'streetAddress', 'locality', 'postCode', 'floorArea'],
    ...Array.from({ length: rows }, (_, i) => [
      `Bench Site ${i}`,
      'Bench Estates Ltd',
      'Office',
      `${i + 1} Bench Street`,
      'Leeds',
      'LS1 4AP',
      String(500 + i),
    ]),
  ]);
  let started = performance.now();
  const imported = await api({
    method: 'POST',
    path: '/assets/import',
    token,
    body: { fileName: 'bench.csv', csv },
  });
  const importMs = performance.now() - started;
  if (imported.status !== 201) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.body)}`);
  started = performance.now();
  const undone = await api({
    method: 'POST',
    path: '/assets/import-rollback',
    token,
    body: { batchId: imported.body.batchId },
  });
  const rollbackMs = performance.now() - started;
  if (undone.status !== 200) throw new Error(`rollback: ${undone.status}`);
  console.log(
    `${rows} sites (${(csv.length / 1024).toFixed(0)} KiB): import ${importMs.toFixed(0)} ms, rollback ${rollbackMs.toFixed(0)} ms`,
  );
} finally {
  await fx.stop();
}
