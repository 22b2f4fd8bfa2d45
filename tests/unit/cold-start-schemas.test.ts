import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions.ts';

/** zod's hook run on every schema it builds (its own and zod/mini's share it, through `globalThis`). */
interface ZodGlobalConfig {
  postProcessor?: (schema: { _zod: { traits: Set<string> } }) => void;
}
const zodConfig = () => {
  const g = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
  g.__zod_globalConfig ??= {};
  return g.__zod_globalConfig;
};

/**
 * Imports `load` fresh and answers the schemas of zod's full build made meanwhile, each named by the first of
 * our files on its stack, and how many of zod/mini's were made.
 */
async function schemasBuiltBy(load: () => Promise<unknown>): Promise<{ full: string[]; mini: number }> {
  vi.resetModules();
  const full: string[] = [];
  let mini = 0;
  zodConfig().postProcessor = (schema) => {
    if (schema._zod.traits.has('ZodMiniType')) mini++;
    if (!schema._zod.traits.has('ZodType')) return;
    const ours = (new Error().stack ?? '')
      .split('\n')
      .find((line) => line.includes(REPO_ROOT) && !/node_modules|\/tests\//.test(line));
    full.push(ours?.slice(ours.indexOf(REPO_ROOT) + REPO_ROOT.length) ?? 'unknown');
  };
  await load();
  zodConfig().postProcessor = undefined;
  return { full, mini };
}

afterEach(() => {
  zodConfig().postProcessor = undefined;
});

describe('schemas built when a function starts', () => {
  // Their start path is the one every function shares: the caller's grants, path parameters and the
  // query declarations of their routes, built on first use (the analytics query among them). zod's full
  // build costs several milliseconds of setup with its first schema, which a cold start would pay.
  it.each([
    ['assets', () => import('../../functions/handlers/http/assets.ts')],
    ['asset-groups', () => import('../../functions/handlers/http/asset-groups.ts')],
    ['entities', () => import('../../functions/handlers/http/entities.ts')],
    ['templates', () => import('../../functions/handlers/http/templates.ts')],
    ['companies', () => import('../../functions/handlers/http/companies.ts')],
    ['automation', () => import('../../functions/handlers/http/automation.ts')],
    ['accounts', () => import('../../functions/handlers/http/accounts.ts')],
    ['util', () => import('../../functions/handlers/http/util.ts')],
    ['insights', () => import('../../functions/handlers/http/insights.ts')],
    ['targets', () => import('../../functions/handlers/http/targets.ts')],
    ['collaboration', () => import('../../functions/handlers/http/collaboration.ts')],
    ['invoices', () => import('../../functions/handlers/http/invoices.ts')],
    ['invoice-validation', () => import('../../functions/handlers/http/invoice-validation.ts')],
    ['session', () => import('../../functions/handlers/http/session.ts')],
  ])("starts the %s function without building a schema of zod's full build", async (_name, load) => {
    const { full, mini } = await schemasBuiltBy(load);
    expect(full).toEqual([]);
    expect(mini).toBeGreaterThan(0);
  });

  it("checks grants and path parameters, and declares first-use queries, with zod/mini's schemas", async () => {
    const { full } = await schemasBuiltBy(async () => {
      await import('../../shared/schemas/grants.ts');
      const { pathParamsSchema } = await import('../../shared/system/route-params.ts');
      pathParamsSchema('/assets/{id}/tenants/{subId}');
      const { onFirstUse } = await import('../../shared/schemas/on-first-use.ts');
      const z = await import('zod');
      const later = onFirstUse(() => z.object({ q: z.string() }));
      return later;
    });
    expect(full).toEqual([]);
  });

  it("gates features and reads capture limits without building the staff admin's schemas", async () => {
    // Every function that gates a feature (discussions, the marketplace, e-mail capture) loads these.
    const { full } = await schemasBuiltBy(async () => {
      await import('../../functions/staff-tools/product-settings-service.ts');
      await import('../../functions/staff-tools/admin-repository.ts');
    });
    expect(full).toEqual([]);
  });

  it('still checks them as before', async () => {
    vi.resetModules();
    const { grantsSchema } = await import('../../shared/schemas/grants.ts');
    const id = 'a'.repeat(24);
    expect(grantsSchema.parse({ assets: { read: [id] } })).toEqual({
      entities: { read: [], write: [] },
      assets: { read: [id], write: [] },
      accounts: { read: [], write: [] },
    });
    expect(grantsSchema.safeParse({ assets: { read: ['x'] } }).error?.issues[0]?.message).toBe(
      'Must be a valid id',
    );
    const { pathParamsSchema } = await import('../../shared/system/route-params.ts');
    const params = pathParamsSchema('/assets/{id}');
    expect(params.safeParse({ id: 'abc' }).success).toBe(true);
    expect(params.safeParse({ id: '' }).error?.issues[0]?.message).toBe('Must not be empty');
    expect(params.safeParse({ id: 'é'.repeat(513) }).error?.issues[0]?.message).toBe(
      'Too long to name anything',
    );
  });
});
