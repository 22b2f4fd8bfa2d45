import type * as z from 'zod';
import type { HttpFunctionName } from './functions.ts';
import { findResource, RESOURCES } from './resources.ts';

/**
 * The zod schemas of the declared resources, kept apart from the declarations so that a function builds
 * only the schemas of the resources it serves: every function loads the declarations (for routes and
 * access), and building every resource's schemas cost each cold start ~15-25 ms. Each HTTP function
 * registers its own resources through `resource-schemas/<function>.ts`; `resource-schemas/all.ts`
 * registers every resource, for the seed, tests and scripts.
 */
export interface ResourceSchemas {
  schema: z.ZodObject;
  /** One schema per declared sub-resource, by name. */
  subResources?: Readonly<Record<string, z.ZodObject>>;
}

const registry = new Map<string, ResourceSchemas>();

/**
 * Registers the schemas of resources that `fn` serves. A resource of another function, an undeclared one
 * or sub-resources that differ from the declaration fail here, when the registering module loads.
 */
export function registerResourceSchemas<T extends Readonly<Record<string, ResourceSchemas>>>(
  fn: HttpFunctionName,
  entries: T,
): T {
  for (const [name, entry] of Object.entries(entries)) {
    const decl = findResource(name);
    if (!decl) throw new Error(`Schemas registered for ${name}, which is not a declared resource`);
    if (decl.fn !== fn) throw new Error(`Resource ${name} is served by ${decl.fn}, not ${fn}`);
    const declared = [...(decl.subResources ?? [])].sort().join(', ');
    const given = Object.keys(entry.subResources ?? {})
      .sort()
      .join(', ');
    if (declared !== given) {
      throw new Error(
        `Resource ${name} declares sub-resources [${declared}] but registers schemas for [${given}]`,
      );
    }
    registry.set(name, entry);
  }
  return entries;
}

/** Resources whose schemas are registered on first need, with the load that registers them. */
const later = new Map<string, () => Promise<unknown>>();
const READY: Promise<void> = Promise.resolve();
let loading: Promise<void> | undefined;

/**
 * Declares that `fn` serves its resources' schemas, without building them: `load` imports the function's
 * registration module (`resource-schemas/<fn>.ts`) when `loadResourceSchemas` is first awaited. For a
 * function whose most frequent calls parse no resource (a list, a read), so that its cold start does not
 * build every schema of its writes.
 */
export function registerResourceSchemasLater(fn: HttpFunctionName, load: () => Promise<unknown>): void {
  for (const r of RESOURCES) if (r.fn === fn && !registry.has(r.name)) later.set(r.name, load);
}

/** Registers the schemas declared for later, once; settles at once when none are waiting. */
export function loadResourceSchemas(): Promise<void> {
  if (later.size === 0) return READY;
  loading ??= Promise.all([...new Set(later.values())].map((load) => load())).then(
    () => {
      for (const name of later.keys()) if (registry.has(name)) later.delete(name);
      loading = undefined;
      if (later.size > 0) throw new Error(`No schemas were registered for ${[...later.keys()].join(', ')}`);
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

export function hasResourceSchema(name: string): boolean {
  return registry.has(name) || later.has(name);
}

function registered(name: string): ResourceSchemas {
  const entry = registry.get(name);
  if (!entry && later.has(name))
    throw new Error(`The schemas of resource ${name} are not loaded yet: await loadResourceSchemas() first`);
  if (!entry) {
    const fn = findResource(name)?.fn;
    throw new Error(
      fn
        ? `No schema registered for resource ${name}: import shared/system/resource-schemas/${fn}.ts`
        : `No resource ${name} is declared`,
    );
  }
  return entry;
}

export function resourceSchema(name: string): z.ZodObject {
  return registered(name).schema;
}

export function subResourceSchema(name: string, sub: string): z.ZodObject {
  const schema = registered(name).subResources?.[sub];
  if (!schema) throw new Error(`Resource ${name} has no sub-resource ${sub}`);
  return schema;
}
