/**
 * A browser's part of talking to a supplier portal, at the HTTP level: a cookie jar scoped by path,
 * redirects followed by hand (so each hop's cookies are kept), form posts, and a deadline on each request.
 */

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class PortalUnavailable extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

export interface PortalResponse {
  status: number;
  url: string;
  contentType: string;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

const MAX_REDIRECTS = 10;

export class PortalSession {
  private readonly cookies = new Map<string, Cookie>();
  requests = 0;
  private readonly timeoutMs: number;
  private readonly userAgent = 'Voltfolio-Connector/1.0 (+https://voltfolio.app)';

  constructor(timeoutMs = 30_000) {
    this.timeoutMs = timeoutMs;
  }

  private remember(url: URL, headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const pathAttr = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : url.pathname.replace(/\/[^/]*$/, '') || '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a.trim()));
      const id = `${name}@${path}`;
      if (expired || value === '') this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  private cookieHeader(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) =>
          url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  async request(
    method: 'GET' | 'POST',
    target: string,
    form?: Record<string, string>,
  ): Promise<PortalResponse> {
    let url = new URL(target);
    let currentMethod = method;
    let body: string | undefined = form ? new URLSearchParams(form).toString() : undefined;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const headers: Record<string, string> = {
        'user-agent': this.userAgent,
        accept: 'text/html,application/pdf,*/*',
      };
      const cookie = this.cookieHeader(url);
      if (cookie) headers.cookie = cookie;
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      this.requests++;
      let res: Response;
      try {
        res = await fetch(url, {
          method: currentMethod,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        const why =
          err instanceof Error && err.name === 'TimeoutError'
            ? 'did not answer in time'
            : 'could not be reached';
        throw new PortalUnavailable(`The portal ${why} (${url.host})`);
      }
      this.remember(url, res.headers);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        url = new URL(location, url);
        // As browsers do: a redirect after a form post is followed with GET.
        if (res.status !== 307 && res.status !== 308) {
          currentMethod = 'GET';
          body = undefined;
        }
        continue;
      }
      if (res.status >= 500 || res.status === 429) {
        await res.arrayBuffer();
        throw new PortalUnavailable(`The portal answered ${res.status} (${url.host})`, res.status);
      }
      const finalUrl = url.href;
      return {
        status: res.status,
        url: finalUrl,
        contentType: res.headers.get('content-type') ?? '',
        text: () => res.text(),
        bytes: async () => new Uint8Array(await res.arrayBuffer()),
      };
    }
    throw new PortalUnavailable('The portal redirected too many times');
  }
}
