import * as z from 'zod';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { notFound, readOnly } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { findSupplier } from '../suppliers/index.ts';
import { adapterFor } from './connector-adapters.ts';
import {
  connectorStates,
  getRun,
  getRunLog,
  getSealedPassword,
  portalLogins,
  runsOfSupplier,
} from './connector-repository.ts';
import { startRun } from './run-start.ts';

const startBody = onFirstUse(() =>
  z.object({ supplierId: z.string().regex(/^[0-9a-f]{24}$/, 'Must be a valid id') }).strict(),
);

const start = operation({}, async (ctx): Promise<OpResult> => {
  const { supplierId } = parseOrThrow(startBody, ctx.body);
  const run = await startRun(ctx.caller.companyId, supplierId, 'manual', ctx.caller.sub, ctx.log);
  return { status: 201, body: run };
});

const logDownload = operation({ params: ['id', 'logId'] }, async (ctx): Promise<OpResult> => {
  const run = await getRun(ctx.caller.companyId, ctx.params.id);
  // A run record written before logs were kept, or by another path, may hold none.
  const ref = Array.isArray(run?.logs) ? run.logs.find((l) => l._id === ctx.params.logId) : undefined;
  const lines = ref ? await getRunLog(ctx.caller.companyId, ctx.params.id, ctx.params.logId) : undefined;
  if (!run || !ref) throw notFound('There is no such log');
  const text = (lines ?? []).join('\n');
  return {
    body: {
      fileName: `connector-run-${run._id}-${ref.step}.log`,
      contentType: 'text/plain',
      step: ref.step,
      status: ref.status,
      text,
    },
  };
});

/**
 * Every supplier-portal login of the company with what its connector knows: whether a password is held
 * (never the password), whether the portal refused it, and the last run.
 */
const connectors = operation({}, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const [logins, states] = await Promise.all([portalLogins(companyId), connectorStates(companyId)]);
  const data = await Promise.all(
    Object.entries(logins).map(async ([supplierId, login]) => {
      const [supplier, sealed, [lastRun]] = await Promise.all([
        findSupplier(supplierId),
        getSealedPassword(companyId, supplierId),
        runsOfSupplier(companyId, supplierId, 1),
      ]);
      const state = states.find((s) => s.supplierId === supplierId);
      return {
        supplierId,
        supplierName: supplier?.name ?? 'Unknown supplier',
        adapter: supplier ? (adapterFor(supplier.name)?.label ?? null) : null,
        username: login.username,
        enabled: login.enabled,
        passwordSet: sealed !== undefined,
        status: state?.blocked ? 'wrong-password' : login.enabled ? 'ready' : 'off',
        lastRun: lastRun ?? null,
      };
    }),
  );
  return { body: { data, total: data.length } };
});

const READ_ONLY =
  'Connector runs are started with POST /scraper-runs/start-run and written by the connector.';

const refuseWrite = operation({}, async (): Promise<OpResult> => {
  throw readOnly(READ_ONLY);
});

/** Another company's run, or none, is not found rather than refused: the answer tells nothing of it. */
const refuseItemWrite = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  if (!(await getRun(ctx.caller.companyId, ctx.params.id))) throw notFound();
  throw readOnly(READ_ONLY);
});

export const SCRAPER_RUN_OPERATIONS: Operations = {
  'scraperRuns.start': start,
  'scraperRuns.logDownload': logDownload,
  'scraperRuns.connectors': connectors,
  'scraperRuns.readOnly': refuseWrite,
  'scraperRuns.readOnlyItem': refuseItemWrite,
};
