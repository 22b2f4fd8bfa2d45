import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|xml|javascript)|image\/svg\+xml)/;
/** esbuild's `[name]-[hash]` names: an 8-character upper-case hash before the extension(s). */
const HASHED = /-[A-Z0-9]{8}(\.[A-Za-z0-9]+)+$/;

export const contentTypeOf = (path: string) =>
  CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

interface Cached {
  mtimeMs: number;
  body: Buffer;
  gzipped?: Buffer;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Voltfolio</title>
<p>The web app has not been built into this directory yet. It is built when the local stack starts, once the
web build exists; the API, sign-in and WebSocket already work.</p>`;

/**
 * The single-page app from its build directory: files as they are, any other path without a file
 * extension gets index.html (client-side routes). Hashed assets are cached for a year, index.html is
 * revalidated on every load so a new build shows at once.
 */
export function staticFiles(root: string) {
  const cache = new Map<string, Cached>();

  async function load(path: string): Promise<Cached | undefined> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      const hit = cache.get(path);
      if (hit && hit.mtimeMs === info.mtimeMs) return hit;
      const entry: Cached = { mtimeMs: info.mtimeMs, body: await readFile(path) };
      cache.set(path, entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  return async function serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const relative = normalize(decoded).replace(/^([/\\])+/, '');
    const candidate = join(root, relative);
    if (candidate !== root && !candidate.startsWith(root + sep)) {
      res.writeHead(404).end();
      return;
    }
    let path = relative === '' ? join(root, 'index.html') : candidate;
    let file = await load(path);
    if (!file && extname(relative) === '') {
      path = join(root, 'index.html');
      file = await load(path);
    }
    if (!file) {
      const isPage = extname(relative) === '' || relative.endsWith('.html');
      res.writeHead(404, {
        'content-type': isPage ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      });
      res.end(isPage ? NOT_BUILT : 'Not found');
      return;
    }
    const type = contentTypeOf(path);
    const etag = `W/"${file.body.byteLength.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    const headers: Record<string, string> = {
      etag,
      'content-type': type,
      'cache-control': HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    };
    let body = file.body;
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (acceptsGzip && COMPRESSIBLE.test(type) && body.byteLength > 1024) {
      file.gzipped ??= await gzipAsync(body);
      body = file.gzipped;
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.byteLength);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
