import { ApiError } from '../../lib/api-client.ts';

/** GET /users/me/api-usage. */
export interface ApiUsage {
  enabled: boolean;
  plan: { callsPerPeriod: number; periodDays: number; ratePerSecond: number };
  key: { prefix: string; createdAt?: string } | null;
  callsThisPeriod: number;
  remaining?: number;
  periodStart?: string;
  resetsAt?: string;
}

/** POST /users/me/api-key: the key is in this answer only. */
export interface IssuedKey {
  key: string;
  prefix: string;
  createdAt: string;
  message?: string;
}

/** GET /users/me/mfa. */
export interface MfaStatus {
  totp: { enabled: boolean };
}

/** POST /users/me/mfa/totp. */
export interface TotpEnrolment {
  secret: string;
  otpauthUri: string;
}

export const API_USAGE_KEY = '/users/me/api-usage';
export const MFA_KEY = '/users/me/mfa';

/** A call this version of the API does not offer yet (the route is unknown), as opposed to a failure. */
export function isMissingRoute(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code === 'ROUTE_NOT_FOUND';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The secret in groups of four, as authenticator apps show it and people type it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
