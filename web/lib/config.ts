/**
 * Runtime configuration, read from `/config.json` at start so one build serves every environment
 * (the local OpenID provider or a Cognito user pool in AWS).
 */
export interface WebConfig {
  /** The OpenID issuer, e.g. `http://localhost:3000/oidc` or `https://cognito-idp.<region>.amazonaws.com/<poolId>`. */
  issuer: string;
  clientId: string;
  /** Base of the HTTP API, absolute or relative to the page origin (e.g. `/api`). */
  apiBase: string;
  /** The live connection endpoint, absolute (`wss://…`) or relative to the page origin (e.g. `/ws`). */
  wsUrl: string;
  /**
   * The resource indicator (RFC 8707) asked for so access tokens carry the API as their audience.
   * Absent for providers that do not take one (Cognito). Relative values resolve against the page origin.
   */
  resource?: string;
  scope?: string;
  /** For providers whose discovery document names no end-session endpoint (Cognito's hosted UI `/logout`). */
  endSessionEndpoint?: string;
  /** Extra query parameters of the sign-out redirect (Cognito wants `client_id` and `logout_uri`). */
  logoutParams?: Record<string, string>;
}

/** The configuration with every URL made absolute for the page's origin. */
export interface ResolvedConfig {
  issuer: string;
  clientId: string;
  apiBase: string;
  wsUrl: string;
  resource: string | undefined;
  scope: string;
  origin: string;
  endSessionEndpoint: string | undefined;
  logoutParams: Record<string, string>;
}

export const DEFAULT_SCOPE = 'openid email profile offline_access';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function requireString(raw: Record<string, unknown>, key: string): string {
  const value = raw[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`config.json: "${key}" must be a non-empty string`);
  }
  return value;
}

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`config.json: "${key}" must be a string`);
  return value;
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('config.json: "logoutParams" must be an object of strings');
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new Error(`config.json: "logoutParams.${k}" must be a string`);
    out[k] = v;
  }
  return out;
}

/** Validates the raw configuration and resolves its URLs against the page origin. */
export function resolveConfig(raw: unknown, origin: string): ResolvedConfig {
  if (typeof raw !== 'object' || raw === null) throw new Error('config.json must hold an object');
  const record = raw as Record<string, unknown>;
  const absolute = (value: string) => trimSlash(new URL(value, origin).toString());
  const ws = new URL(requireString(record, 'wsUrl'), origin);
  if (ws.protocol === 'http:') ws.protocol = 'ws:';
  if (ws.protocol === 'https:') ws.protocol = 'wss:';
  const resource = optionalString(record, 'resource');
  const endSession = optionalString(record, 'endSessionEndpoint');
  return {
    issuer: trimSlash(requireString(record, 'issuer')),
    clientId: requireString(record, 'clientId'),
    apiBase: absolute(requireString(record, 'apiBase')),
    wsUrl: trimSlash(ws.toString()),
    resource: resource ? absolute(resource) : undefined,
    scope: optionalString(record, 'scope') ?? DEFAULT_SCOPE,
    origin,
    endSessionEndpoint: endSession ? absolute(endSession) : undefined,
    logoutParams: stringRecord(record.logoutParams),
  };
}

export async function loadConfig(origin: string, fetchImpl: typeof fetch = fetch): Promise<ResolvedConfig> {
  const response = await fetchImpl('/config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`config.json could not be loaded (${response.status})`);
  return resolveConfig(await response.json(), origin);
}
