import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * With code splitting, esbuild places every module a package's index re-exports in the chunks of the
 * entry that imports the index, even when only a lazily loaded page uses it: one `import { Button }
 * from '@mantine/core'` in the first load would carry the inputs, tables and selects of every page.
 * Importing each name from its own module keeps each page's components in that page's chunk.
 */
export const BARREL_PACKAGES = ['@mantine/core', '@mantine/hooks'] as const;

/** Exported name → the module that defines it and its name there. */
export type BarrelMap = ReadonlyMap<string, { file: string; name: string }>;

/** Reads an index of the form `import { a, b as c } from "./x.mjs"; … export { a, c as d };`. */
export function parseBarrel(source: string, indexFile: string): BarrelMap {
  const locals = new Map<string, { file: string; name: string }>();
  for (const [, names = '', from = ''] of source.matchAll(
    /^import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)";?$/gm,
  )) {
    for (const spec of names.split(',')) {
      const [imported, local = imported] = spec.trim().split(/\s+as\s+/);
      if (imported && local)
        locals.set(local, { file: path.resolve(path.dirname(indexFile), from), name: imported });
    }
  }
  const out = new Map<string, { file: string; name: string }>();
  for (const [, names = ''] of source.matchAll(/^export\s*\{([^}]*)\};?$/gm)) {
    for (const spec of names.split(',')) {
      const [local, exported = local] = spec.trim().split(/\s+as\s+/);
      const target = local ? locals.get(local) : undefined;
      if (target && exported) out.set(exported, target);
    }
  }
  return out;
}

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2;?/g;

/**
 * Rewrites `import { A, B as C } from '<barrel>'` into one import per name from its own module. Type
 * imports are dropped (the build erases them anyway); names the map does not know stay on the index.
 * The rewrite keeps the statement's line count so source maps still point at the right lines.
 */
export function rewriteBarrelImports(source: string, barrels: ReadonlyMap<string, BarrelMap>): string {
  return source.replace(IMPORT, (statement, names: string, _quote: string, specifier: string) => {
    const map = barrels.get(specifier);
    if (!map) return statement;
    const direct: string[] = [];
    const kept: string[] = [];
    for (const raw of names.split(',')) {
      const spec = raw.trim();
      if (!spec || spec.startsWith('type ')) continue;
      const [name, alias = name] = spec.split(/\s+as\s+/);
      const target = name ? map.get(name) : undefined;
      if (target) direct.push(`import { ${target.name} as ${alias} } from ${JSON.stringify(target.file)};`);
      else kept.push(spec);
    }
    if (kept.length > 0) direct.push(`import { ${kept.join(', ')} } from ${JSON.stringify(specifier)};`);
    const lines = statement.split('\n').length - 1;
    return direct.join(' ') + '\n'.repeat(lines);
  });
}

/** An esbuild plugin applying the rewrite to the app's own source files. */
export function barrelImports(
  sourceDir: string,
  nodeModules: string,
  packages: readonly string[] = BARREL_PACKAGES,
): Plugin {
  return {
    name: 'voltfolio-barrel-imports',
    setup(build) {
      let barrels: Promise<Map<string, BarrelMap>> | undefined;
      const load = async () => {
        const out = new Map<string, BarrelMap>();
        for (const pkg of packages) {
          const index = path.join(nodeModules, pkg, 'esm', 'index.mjs');
          out.set(pkg, parseBarrel(await readFile(index, 'utf8'), index));
        }
        return out;
      };
      const literal = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      build.onLoad({ filter: new RegExp(`^${literal(sourceDir)}/.*\\.tsx?$`) }, async (args) => {
        barrels ??= load();
        const source = await readFile(args.path, 'utf8');
        return {
          contents: rewriteBarrelImports(source, await barrels),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
          watchFiles: [args.path],
        };
      });
      // The packages import each other's indexes too (Mantine's components use its hooks' index).
      // esbuild reports resolved (real) paths, so a symlinked node_modules must be matched by its target.
      const inPackages = new RegExp(
        `^${literal(realpathSync(nodeModules))}/(?:${packages.map(literal).join('|')})/esm/.*\\.mjs$`,
      );
      build.onLoad({ filter: inPackages }, async (args) => {
        barrels ??= load();
        const source = await readFile(args.path, 'utf8');
        if (!packages.some((pkg) => source.includes(`"${pkg}"`))) return undefined;
        return { contents: rewriteBarrelImports(source, await barrels), loader: 'js' };
      });
    },
  };
}
