import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LoadedOidc {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

interface OidcModule {
  createOidc(opts: { origin: string; stateDir: string }): Promise<unknown> | unknown;
}

/**
 * The local OpenID provider (infra/local/oidc/provider.ts), loaded at run time: when it cannot load, the
 * reason is reported and everything else keeps running.
 */
export async function loadOidc(
  repoRoot: string,
  origin: string,
  stateDir: string,
): Promise<{ oidc: LoadedOidc } | { error: string }> {
  try {
    const mod: unknown = await import(
      pathToFileURL(join(repoRoot, 'infra', 'local', 'oidc', 'provider.ts')).href
    );
    if (typeof (mod as Partial<OidcModule> | null)?.createOidc !== 'function') {
      return { error: 'infra/local/oidc/provider.ts exports no createOidc' };
    }
    const created = (await (mod as OidcModule).createOidc({
      origin,
      stateDir,
    })) as Partial<LoadedOidc> | null;
    if (typeof created?.handle !== 'function') return { error: 'createOidc returned no handle(req, res)' };
    const close = created.close;
    return {
      oidc: {
        handle: created.handle.bind(created),
        close: async () => {
          if (typeof close === 'function') await close.call(created);
        },
      },
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
