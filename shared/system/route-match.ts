import type { HttpMethod, HttpRoute } from './routes.ts';

export interface RouteMatch<R extends HttpRoute = HttpRoute> {
  route: R;
  params: Record<string, string>;
}

interface CompiledRoute<R extends HttpRoute> {
  route: R;
  segments: readonly string[];
  /** Literal segments score higher than parameters, earlier segments weigh more: `/assets/schema` beats `/assets/{id}`. */
  score: number;
}

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** Matches request paths against declared routes: the most specific route wins. */
export class RouteTable<R extends HttpRoute = HttpRoute> {
  private readonly byMethod = new Map<string, CompiledRoute<R>[]>();

  constructor(routes: readonly R[]) {
    for (const route of routes) {
      const segments = splitPath(route.path);
      const score = segments.reduce((acc, s, i) => acc + (isParam(s) ? 0 : 2 ** (20 - i)), 0);
      const list = this.byMethod.get(route.method) ?? [];
      list.push({ route, segments, score });
      this.byMethod.set(route.method, list);
    }
    for (const list of this.byMethod.values()) list.sort((a, b) => b.score - a.score);
  }

  match(method: string, path: string): RouteMatch<R> | undefined {
    const candidates = this.byMethod.get(method.toUpperCase());
    if (!candidates) return undefined;
    const parts = splitPath(path);
    for (const candidate of candidates) {
      if (candidate.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = candidate.segments[i] as string;
        const part = parts[i] as string;
        if (isParam(seg)) {
          params[seg.slice(1, -1)] = safeDecode(part);
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (ok) return { route: candidate.route, params };
    }
    return undefined;
  }

  /** Methods that some route allows on this path, for a 405-style hint. */
  methodsFor(path: string): HttpMethod[] {
    const found: HttpMethod[] = [];
    for (const [method] of this.byMethod) {
      if (this.match(method, path)) found.push(method as HttpMethod);
    }
    return found;
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
