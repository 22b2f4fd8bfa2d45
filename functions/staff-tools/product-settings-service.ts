import type { ProductSettings } from '../../shared/schemas/staff-admin.ts';
import {
  CAPTURE_FILE_MB_CEILING,
  FEATURE_FLAGS,
  type FeatureFlag,
  featureOffMessage,
} from '../../shared/schemas/staff-admin-values.ts';
import { ApiError } from '../core/lib/errors.ts';
import type { OpContext, Operation, Operations } from '../core/middleware/api-context.ts';
import { readProductSettings } from './admin-repository.ts';

/** What capture accepts, as staff set it on /admin/settings. */
export type CaptureLimits = ProductSettings['captureLimits'] & { maxFileBytes: number };

/** Read on every use, not cached: a limit staff lower applies to the next document, on every instance. */
export async function captureLimits(): Promise<CaptureLimits> {
  const limits = (await readProductSettings()).captureLimits;
  const maxFileMb = Math.min(limits.maxFileMb, CAPTURE_FILE_MB_CEILING);
  return { ...limits, maxFileMb, maxFileBytes: maxFileMb * 1024 * 1024 };
}

/** A flag never set leaves its feature on. */
export async function featureOn(flag: FeatureFlag): Promise<boolean> {
  return (await readProductSettings()).featureFlags[flag] !== false;
}

/** The flags staff have turned off, for pages that hide what a flag closes. */
export async function featuresOff(): Promise<FeatureFlag[]> {
  const flags = (await readProductSettings()).featureFlags;
  return (Object.keys(FEATURE_FLAGS) as FeatureFlag[]).filter((flag) => flags[flag] === false);
}

async function refuseOff(flag: FeatureFlag | undefined): Promise<void> {
  if (flag && !(await featureOn(flag))) throw new ApiError(404, 'FEATURE_OFF', featureOffMessage(flag));
}

function wrapEach(
  operations: Operations,
  flagOf: (ctx: Pick<OpContext, 'route'>) => FeatureFlag | undefined,
): Operations {
  return Object.fromEntries(
    Object.entries(operations).map(([name, op]) => {
      const gated: Operation = async (ctx) => {
        await refuseOff(flagOf(ctx));
        return op(ctx);
      };
      if (op.spec) gated.spec = op.spec;
      return [name, gated];
    }),
  );
}

/** The operations of a feature, each refusing with 404 while staff have turned the feature off. */
export const gatedBy = (flag: FeatureFlag, operations: Operations): Operations =>
  wrapEach(operations, () => flag);

/**
 * Shared operations (the generic resource calls) serve many resources: only the routes of a resource a
 * feature owns are refused while it is off.
 */
export const gatedByResource = (
  operations: Operations,
  flags: Readonly<Partial<Record<string, FeatureFlag>>>,
): Operations => wrapEach(operations, (ctx) => (ctx.route.resource ? flags[ctx.route.resource] : undefined));
