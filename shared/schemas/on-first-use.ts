import * as z from 'zod';

/**
 * A schema built on the first parse that needs it, not when its module loads. Building zod schemas is
 * most of a function's own cold import, and a function instance serves few of the calls whose schemas it
 * carries. The schema is built once and kept; it parses and types as the built one does, but offers none
 * of its methods (`shape`, `extend`): build from the factory for those.
 */
export const onFirstUse = <T extends z.ZodType>(build: () => T): z.ZodLazy<T> => z.lazy(build);
