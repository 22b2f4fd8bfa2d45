import type * as z from 'zod';
import type { HttpFunctionName } from './functions.ts';
import { findResource } from './resources.ts';

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

export function hasResourceSchema(name: string): boolean {
  return registry.has(name);
}

function registered(name: string): ResourceSchemas {
  const entry = registry.get(name);
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
