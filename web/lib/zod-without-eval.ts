/**
 * Zod compiles object parsers with `new Function` where it can, and probes for that ability as schemas
 * are made. The content security policy forbids eval (infra/security-headers.ts), so the probe would be
 * reported as a violation: parse without compiling instead. Zod keeps its configuration on this global
 * and adopts one that already exists, so it is set here, before any schema module loads, without
 * importing zod into the first load (the pages that validate load it lazily).
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
