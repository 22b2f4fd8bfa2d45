import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The one-way lines of the house: shared/ depends on nothing of the project, functions/ and web/ only on
 * shared/, core/ on no area, and an area reaches another only through its index.ts. Biome holds the
 * package-level lines; this walks the project's own import graph, which Biome cannot resolve.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = /\.(ts|tsx)$/;
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

interface ImportEdge {
  from: string;
  /** Repository-relative path of the imported file. */
  to: string;
}

/** The project-relative imports of one file's text (packages are Biome's concern). */
function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[1] ?? match[2];
    if (!spec?.startsWith('.')) continue;
    edges.push({ from: file, to: relative(ROOT, resolve(ROOT, dirname(file), spec)) });
  }
  return edges;
}

const areaOf = (path: string): string | undefined => {
  const [top, area, ...rest] = path.split('/');
  return top === 'functions' && rest.length > 0 ? area : undefined;
};

/** Why an import crosses a line it may not, or undefined when it may. */
function violation({ from, to }: ImportEdge): string | undefined {
  const top = from.split('/')[0];
  const target = to.split('/')[0];
  if (top === 'shared' && target !== 'shared') return 'shared/ depends on nothing else in the project';
  if ((top === 'functions' || top === 'web') && target !== top && target !== 'shared')
    return `${top}/ may import shared/ only`;
  if (top !== 'functions' || target !== 'functions') return undefined;
  const fromArea = areaOf(from);
  const toArea = areaOf(to);
  if (!fromArea || !toArea || fromArea === toArea) return undefined;
  if (fromArea === 'core') return 'core/ is the framework every area uses: it imports no area';
  // Lambda entries compose the areas' operations: they are the one place that names area files.
  if (fromArea === 'handlers') return undefined;
  if (toArea === 'core' || toArea === 'handlers')
    return toArea === 'handlers' ? 'nothing imports an entry' : undefined;
  if (to !== `functions/${toArea}/index.ts`)
    return `another area is reached through functions/${toArea}/index.ts`;
  return undefined;
}

const FILES = ['shared', 'functions', 'web'].flatMap(sourceFiles);
const EDGES = FILES.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')));

describe('the import graph', () => {
  it('reads the imports of every source file', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(EDGES.filter((e) => e.from.startsWith('functions/handlers/')).length).toBeGreaterThan(20);
  });

  it('keeps every import within the lines', () => {
    const crossings = EDGES.map((e) => ({ ...e, why: violation(e) })).filter((e) => e.why);
    expect(crossings).toEqual([]);
  });

  it("makes each area's index.ts a list of re-exports and nothing else", () => {
    const indexes = FILES.filter((f) => /^functions\/[^/]+\/index\.ts$/.test(f));
    expect(indexes.length).toBeGreaterThan(3);
    for (const file of indexes) {
      const lines = readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('//') && !l.startsWith('*') && !l.startsWith('/*'));
      const text = lines.join(' ');
      expect(text.replace(/export (type )?\{[^}]*\} from '\.\/[\w-]+\.ts';/g, '').trim(), file).toBe('');
    }
  });

  it('refuses the crossings it is meant to catch', () => {
    const edge = (from: string, spec: string) =>
      importsOf(from, `import { x } from '${spec}';`)[0] as ImportEdge;
    expect(violation(edge('functions/assets/a.ts', '../invoices/invoice-service.ts'))).toMatch(/index\.ts/);
    expect(violation(edge('functions/assets/a.ts', '../invoices/index.ts'))).toBeUndefined();
    expect(violation(edge('functions/core/access/a.ts', '../../assets/index.ts'))).toMatch(/imports no area/);
    expect(violation(edge('functions/assets/a.ts', '../../web/lib/api.ts'))).toMatch(/shared\/ only/);
    expect(violation(edge('web/features/x/a.tsx', '../../../functions/core/config.ts'))).toMatch(
      /shared\/ only/,
    );
    expect(violation(edge('shared/schemas/a.ts', '../../functions/core/config.ts'))).toMatch(/nothing else/);
    expect(
      violation(edge('functions/handlers/http/a.ts', '../../assets/asset-list-service.ts')),
    ).toBeUndefined();
    expect(violation(edge('functions/assets/a.ts', '../handlers/http/assets.ts'))).toMatch(/entry/);
    const dynamic = importsOf('functions/assets/a.ts', "const m = await import('../invoices/x.ts');");
    expect(dynamic.map(violation)).toEqual([expect.stringMatching(/index\.ts/)]);
    const reexport = importsOf('functions/assets/a.ts', "export { y } from '../invoices/x.ts';");
    expect(reexport.map(violation)).toEqual([expect.stringMatching(/index\.ts/)]);
  });
});
