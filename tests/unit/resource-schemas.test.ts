import { describe, expect, it, vi } from 'vitest';
import { HTTP_FUNCTIONS } from '../../shared/system/functions.ts';
import type { ResourceSchemas } from '../../shared/system/resource-schemas.ts';
import { RESOURCES } from '../../shared/system/resources.ts';

interface RegistrationModule {
  RESOURCE_SCHEMAS: Readonly<Record<string, ResourceSchemas>>;
}

const registrationOf = (fn: string) =>
  import(`../../shared/system/resource-schemas/${fn}.ts`) as Promise<RegistrationModule>;

describe('resource schema registration', () => {
  it('registers each resource in the module of the function that serves it, and nowhere else', async () => {
    for (const fn of HTTP_FUNCTIONS) {
      const { RESOURCE_SCHEMAS } = await registrationOf(fn);
      const served = RESOURCES.filter((r) => r.fn === fn);
      expect(Object.keys(RESOURCE_SCHEMAS).sort(), fn).toEqual(served.map((r) => r.name).sort());
      for (const r of served) {
        expect(Object.keys(RESOURCE_SCHEMAS[r.name]?.subResources ?? {}).sort(), r.name).toEqual(
          [...(r.subResources ?? [])].sort(),
        );
      }
    }
  });

  it('registers every resource and sub-resource through all.ts', async () => {
    vi.resetModules();
    const registry = await import('../../shared/system/resource-schemas.ts');
    expect(registry.hasResourceSchema('dashboards')).toBe(false);
    await import('../../shared/system/resource-schemas/all.ts');
    for (const r of RESOURCES) {
      expect(registry.hasResourceSchema(r.name), r.name).toBe(true);
      expect(registry.resourceSchema(r.name).shape, r.name).toBeDefined();
      for (const sub of r.subResources ?? []) {
        expect(registry.subResourceSchema(r.name, sub).shape, `${r.name}/${sub}`).toBeDefined();
      }
    }
  });

  it('names the module to import when a function serves a resource it has not registered', async () => {
    vi.resetModules();
    const registry = await import('../../shared/system/resource-schemas.ts');
    const { httpFunction } = await import('../../functions/core/middleware/http-function.ts');
    const { AREAS } = await import('../../shared/system/areas.ts');
    const { GENERIC_OPERATIONS } = await import('../../functions/core/resources/resource-service.ts');
    const analytics = await import('../../functions/analytics/index.ts');
    const reports = await import('../../functions/reports/index.ts');
    const { provenance } = await import('../../functions/analytics/provenance-service.ts');
    const operations = {
      ...GENERIC_OPERATIONS,
      ...analytics.ANALYTICS_OPERATIONS,
      'analytics.provenance': provenance,
      ...analytics.DASHBOARD_WIDGET_OPERATIONS,
      ...analytics.METER_QUALITY_OPERATIONS,
      ...analytics.FACTOR_SET_OPERATIONS,
      ...reports.REPORT_OPERATIONS,
    };
    expect(() => registry.resourceSchema('dashboards')).toThrow(
      'No schema registered for resource dashboards: import shared/system/resource-schemas/insights.ts',
    );
    expect(() => httpFunction('insights', AREAS, operations)).toThrow(
      /Function insights serves resources without registered schemas: .*dashboards, widgets.*resource-schemas\/insights\.ts/,
    );
    await import('../../shared/system/resource-schemas/insights.ts');
    expect(() => httpFunction('insights', AREAS, operations)).not.toThrow();
  });

  it("starts the assets function without building its resources' schemas, and builds them on first need", async () => {
    vi.resetModules();
    const registry = await import('../../shared/system/resource-schemas.ts');
    await import('../../functions/handlers/http/assets.ts');
    for (const name of ['assets', 'projects', 'recommendations']) {
      expect(registry.hasResourceSchema(name), name).toBe(true);
      expect(() => registry.resourceSchema(name), name).toThrow(/not loaded yet/);
    }
    await registry.loadResourceSchemas();
    expect(registry.resourceSchema('assets').shape.siteName).toBeDefined();
    expect(registry.subResourceSchema('assets', 'tenants').shape).toBeDefined();
    expect(registry.subResourceSchema('projects', 'tasks').shape).toBeDefined();
  });

  it.each([
    ['templates', () => import('../../functions/handlers/http/templates.ts'), ['suppliers', 'templates']],
    [
      'companies',
      () => import('../../functions/handlers/http/companies.ts'),
      ['companies', 'roles', 'permissions', 'settings'],
    ],
    [
      'automation',
      () => import('../../functions/handlers/http/automation.ts'),
      ['imports', 'import-templates', 'scraper-runs', 'automations', 'automation-runs'],
    ],
  ])(
    "starts the %s function without building its resources' schemas, and builds them on first need",
    async (_fn, load, names) => {
      vi.resetModules();
      const registry = await import('../../shared/system/resource-schemas.ts');
      await load();
      for (const name of names) {
        expect(registry.hasResourceSchema(name), name).toBe(true);
        expect(() => registry.resourceSchema(name), name).toThrow(/not loaded yet/);
      }
      await registry.loadResourceSchemas();
      for (const name of names)
        expect(Object.keys(registry.resourceSchema(name).shape), name).not.toEqual([]);
    },
  );

  it('refuses schemas registered by a function that does not serve the resource', async () => {
    const { registerResourceSchemas } = await import('../../shared/system/resource-schemas.ts');
    const { dashboardSchema } = await import('../../shared/schemas/insights.ts');
    expect(() => registerResourceSchemas('util', { dashboards: { schema: dashboardSchema } })).toThrow(
      'Resource dashboards is served by insights, not util',
    );
    expect(() => registerResourceSchemas('insights', { gadgets: { schema: dashboardSchema } })).toThrow(
      'Schemas registered for gadgets, which is not a declared resource',
    );
  });
});
