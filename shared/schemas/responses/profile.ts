/** Answers of the user's own API-key and sign-in calls, as the browser reads them. */

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
