import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { errors, type InteractionResults } from 'oidc-provider';
import type { AccountStore } from './account-store.ts';
import { messagePage, signInPage, totpPage } from './pages.ts';
import { createSignInThrottle } from './sign-in-throttle.ts';
import { verifyTotp } from './totp.ts';

export const WRONG_PASSWORD = 'Incorrect e-mail or password.';
export const WRONG_CODE = 'That code is not right. Try again.';
/** What a client that must wait is told, with the wait in whole seconds. */
export const tooManyAttempts = (retryAfterMs: number): string => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return `Too many failed attempts. Wait ${seconds === 1 ? 'a second' : `${seconds} seconds`}, then try again.`;
};
export const FIRST_PARTY_CLIENT = 'voltfolio-web';

const SECOND_FACTOR_TTL_MS = 5 * 60_000;
const MAX_BODY_BYTES = 16 * 1024;

interface Deps {
  provider: Provider;
  accounts: AccountStore;
  /** Path the provider is mounted at, e.g. /oidc. */
  mountPath: string;
  origin: string;
}

/** The local stack is reached directly, with no proxy in front whose forwarded-for header could be trusted. */
const clientIp = (req: IncomingMessage) => (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');

function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('Form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The sign-in pages the provider sends browsers to: e-mail and password, then the authenticator code
 * when the account has one. Consent is implied for Voltfolio's own web client and granted without a page.
 */
export function createInteractions({ provider, accounts, mountPath, origin }: Deps) {
  const throttle = createSignInThrottle();
  const wait = (ms: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) });
  /** Interactions whose password step succeeded and now wait for the authenticator code. */
  const awaitingCode = new Map<string, { sub: string; email: string; expiresAt: number }>();
  const base = `${mountPath}/interaction/`;

  const pending = (uid: string) => {
    const entry = awaitingCode.get(uid);
    if (entry && entry.expiresAt > Date.now()) return entry;
    awaitingCode.delete(uid);
    return undefined;
  };

  async function finishLogin(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    sub: string,
    amr: string[],
  ) {
    awaitingCode.delete(uid);
    const result: InteractionResults = { login: { accountId: sub, amr } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  async function grantConsent(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
    if (params.client_id !== FIRST_PARTY_CLIENT || !session) {
      throw new errors.AccessDenied('consent is only implied for the Voltfolio web client');
    }
    const details = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant =
      (grantId ? await provider.Grant.find(grantId) : undefined) ??
      new provider.Grant({ accountId: session.accountId, clientId: FIRST_PARTY_CLIENT });
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const savedGrantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId: savedGrantId } });
  }

  async function show(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
    if (details.prompt.name === 'consent') return grantConsent(req, res);
    if (pending(uid)) return send(res, 200, totpPage({ action: `${base}${uid}/totp` }));
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    send(res, 200, signInPage({ action: `${base}${uid}/login`, ...(hint ? { email: hint } : {}) }));
  }

  async function login(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    const action = `${base}${uid}/login`;
    const key = email.toLowerCase();
    const ip = clientIp(req);
    const verdict = throttle.attempt(key, ip);
    if (!verdict.allowed) {
      const error = tooManyAttempts(verdict.retryAfterMs);
      return send(res, 429, signInPage({ action, email, error }), wait(verdict.retryAfterMs));
    }
    const account = email && password ? await accounts.verifyPassword(email, password) : undefined;
    if (!account) {
      throttle.fail(key, ip);
      return send(res, 401, signInPage({ action, email, error: WRONG_PASSWORD }));
    }
    if (!account.totpSecret) {
      throttle.succeed(key, ip);
      return finishLogin(req, res, uid, account.sub, ['pwd']);
    }
    awaitingCode.set(uid, { sub: account.sub, email: key, expiresAt: Date.now() + SECOND_FACTOR_TTL_MS });
    redirect(res, `${base}${uid}`);
  }

  async function secondFactor(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const step = pending(uid);
    if (details.uid !== uid || !step) return redirect(res, `${base}${uid}`);
    const code = (await readForm(req)).get('code') ?? '';
    const action = `${base}${uid}/totp`;
    const ip = clientIp(req);
    const verdict = throttle.attempt(step.email, ip);
    if (!verdict.allowed) {
      const error = tooManyAttempts(verdict.retryAfterMs);
      return send(res, 429, totpPage({ action, error }), wait(verdict.retryAfterMs));
    }
    const account = await accounts.findBySub(step.sub);
    if (!account?.totpSecret || !(await verifyTotp(account.totpSecret, code))) {
      throttle.fail(step.email, ip);
      return send(res, 401, totpPage({ action, error: WRONG_CODE }));
    }
    throttle.succeed(step.email, ip);
    return finishLogin(req, res, uid, account.sub, ['pwd', 'otp']);
  }

  /** Handles the request when it is for an interaction page; false leaves it to the provider. */
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, path: string) {
    if (!path.startsWith(base)) return false;
    const [uid, action, ...rest] = path.slice(base.length).split('/');
    const method = req.method ?? 'GET';
    try {
      if (!uid || rest.length) {
        send(res, 404, messagePage({ title: 'Page not found', message: 'There is no such sign-in page.' }));
      } else if (action === undefined && (method === 'GET' || method === 'HEAD')) {
        await show(req, res, uid);
      } else if (action === 'login' && method === 'POST') {
        await login(req, res, uid);
      } else if (action === 'totp' && method === 'POST') {
        await secondFactor(req, res, uid);
      } else {
        send(
          res,
          405,
          messagePage({ title: 'Not allowed', message: 'This sign-in page does not accept that.' }),
        );
      }
    } catch (err) {
      if (res.headersSent) throw err;
      const expired = err instanceof errors.SessionNotFound;
      if (!expired) console.error('Sign-in page failed:', err);
      send(
        res,
        expired ? 400 : 500,
        messagePage({
          title: expired ? 'This sign-in has expired' : 'Something went wrong',
          message: expired
            ? 'Go back to Voltfolio and sign in again.'
            : 'Signing in did not work. Go back to Voltfolio and try again.',
          link: { href: `${origin}/`, text: 'Back to Voltfolio' },
        }),
      );
    }
    return true;
  };
}
