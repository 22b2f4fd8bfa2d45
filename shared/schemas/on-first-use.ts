import type * as z from 'zod';
import { lazy, type ZodMiniLazy } from 'zod/mini';

/**
 * A schema built on the first parse that needs it, not when its module loads. Building zod schemas is
 * most of a function's own cold import, and a function instance serves few of the calls whose schemas it
 * carries. The schema is built once and kept; it parses and types as the built one does, but offers none
 * of its methods (`shape`, `extend`): build from the factory for those. The wrapper itself is of zod's small
 * build (`zod/mini`), so that a function declaring many of these builds no schema of the full build at start.
 */
export const onFirstUse = <T extends z.core.$ZodType>(build: () => T): ZodMiniLazy<T> => lazy(build);
