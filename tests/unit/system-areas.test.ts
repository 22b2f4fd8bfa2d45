import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { AREAS } from '../../shared/system/areas.ts';
import { QUEUES } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import { RESOURCES } from '../../shared/system/resources.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';

const AREA_FILES = readdirSync(join(REPO_ROOT, 'shared/system/areas')).map((f) => f.replace(/\.ts$/, ''));

describe('the areas of the system declaration', () => {
  it('assembles every area file once, under its file name', () => {
    expect(AREA_FILES.length).toBeGreaterThan(10);
    expect(AREAS.map((a) => a.name).sort()).toEqual([...AREA_FILES].sort());
  });

  it('gives each resource and each queue exactly one area', () => {
    const names = AREAS.flatMap((a) => (a.resources ?? []).map((r) => r.name));
    expect(names.length).toBe(RESOURCES.length);
    expect(new Set(names).size).toBe(names.length);
    expect(QUEUE_DECLS.map((q) => q.name).sort()).toEqual([...QUEUES].sort());
  });

  it('looks resources up among exactly those the areas declare, in their order', () => {
    // Functions read the resource list apart from the areas, so as not to carry every area's routes.
    const declared = AREAS.flatMap((a) => a.resources ?? []);
    expect(declared.length).toBeGreaterThan(30);
    expect(RESOURCES.length).toBe(declared.length);
    RESOURCES.forEach((r, i) => {
      expect(r, r.name).toBe(declared[i]);
    });
  });

  it("serves every area's own routes", () => {
    const declared = new Set(HTTP_ROUTES.map((r) => `${r.method} ${r.path}`));
    const own = AREAS.flatMap((a) => a.routes ?? []);
    expect(own.length).toBeGreaterThan(200);
    expect(own.filter((r) => !declared.has(`${r.method} ${r.path}`))).toEqual([]);
  });

  it('keeps the backend of an area in the folder of the same name', () => {
    const backend = AREAS.filter((a) => existsSync(join(REPO_ROOT, 'functions', a.name)));
    expect(backend.map((a) => a.name)).toEqual(expect.arrayContaining(['accounts', 'assets', 'invoices']));
    for (const dir of readdirSync(join(REPO_ROOT, 'functions'))) {
      if (dir === 'core' || dir === 'handlers') continue;
      expect(AREA_FILES, `functions/${dir} has no area declaration`).toContain(dir);
    }
  });
});
