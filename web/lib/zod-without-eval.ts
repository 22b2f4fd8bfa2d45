import * as z from 'zod';

/**
 * Zod compiles object parsers with `new Function` where it can, and probes for that ability as schemas
 * are made. The content security policy forbids eval (infra/security-headers.ts), so the probe would be
 * reported as a violation: parse without compiling instead. Imported first, before any schema is made.
 */
z.config({ jitless: true });
