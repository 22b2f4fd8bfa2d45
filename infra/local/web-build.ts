import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LocalUrls, OIDC_CLIENT_ID } from './environment.ts';

export interface WebBuild {
  /** built: a fresh build (kept up to date when watching); existing: whatever the directory holds. */
  state: 'built' | 'existing';
  note?: string;
  dispose(): Promise<void>;
}

interface BuildWebModule {
  buildWeb(opts: {
    outDir: string;
    watch: boolean;
    env: { issuer: string; clientId: string; apiBase: string; wsUrl: string };
  }): Promise<{ dispose(): Promise<void> }>;
}

const isBuildModule = (mod: unknown): mod is BuildWebModule =>
  typeof (mod as { buildWeb?: unknown } | null)?.buildWeb === 'function';

/**
 * Builds the app into `outDir` with the local stack's addresses baked in. The output stays under the
 * state directory, so a build pointing at localhost can never be mistaken for a deployable one. Without
 * the web build module, whatever `outDir` already holds is served.
 */
export async function buildWebApp(
  repoRoot: string,
  outDir: string,
  urls: LocalUrls,
  watch: boolean,
): Promise<WebBuild> {
  const entry = join(repoRoot, 'web', 'build.ts');
  try {
    await access(entry);
  } catch {
    return { state: 'existing', note: 'web/build.ts does not exist yet', dispose: async () => {} };
  }
  const mod: unknown = await import(pathToFileURL(entry).href);
  if (!isBuildModule(mod)) throw new Error('web/build.ts does not export buildWeb');
  const build = await mod.buildWeb({
    outDir,
    watch,
    env: { issuer: urls.issuer, clientId: OIDC_CLIENT_ID, apiBase: urls.apiUrl, wsUrl: urls.wsUrl },
  });
  return { state: 'built', dispose: () => build.dispose() };
}
