import * as z from 'zod/mini';
import { onFirstUse } from './on-first-use.ts';

/**
 * The query of a CSV import whose file is the request's body as text: the file's name, kept with the
 * import (a JSON body names its file itself). Built on the first import a function serves.
 */
export const importFileQuery = onFirstUse(() =>
  z.object({
    fileName: z.pipe(
      z.optional(z.string()),
      z.transform((v) => v?.trim() || undefined),
    ),
  }),
);

export type ImportFileQuery = z.output<typeof importFileQuery>;
