import useSWR from 'swr';
import type {
  ApiUsage,
  IssuedKey,
  MfaStatus,
  TotpEnrolment,
} from '../../../shared/schemas/responses/profile.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type {
  ApiUsage,
  IssuedKey,
  MfaStatus,
  TotpEnrolment,
} from '../../../shared/schemas/responses/profile.ts';

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

/** GET /users/me/api-usage */
export const useApiUsage = () => useSWR<ApiUsage>(API_USAGE_KEY);

/** POST /users/me/api-setup: the answer is the usage as it now stands. */
export const useEnableApi = () =>
  useEndpoint(
    (api) => api.post<ApiUsage>('/users/me/api-setup', {}),
    (usage) => [{ key: API_USAGE_KEY, data: usage, revalidate: false }],
  );

/** POST /users/me/api-key: a new key, shown once; the old one stops working. */
export const useIssueApiKey = () =>
  useEndpoint(
    (api) => api.post<IssuedKey>('/users/me/api-key', {}),
    () => [API_USAGE_KEY],
  );

/** PATCH /users/me */
export const useUpdateProfile = () =>
  useEndpoint((api, body: { name: string; language: string | null }) => api.patch('/users/me', body));

/** GET /users/me/mfa */
export const useMfaStatus = () => useSWR<MfaStatus>(MFA_KEY);

/** POST /users/me/mfa/totp: a new secret to scan; nothing changes until a code confirms it. */
export const useStartTotp = () => useEndpoint((api) => api.post<TotpEnrolment>('/users/me/mfa/totp', {}));

/** POST /users/me/mfa/totp/verify */
export const useVerifyTotp = () =>
  useEndpoint(
    (api, code: string) => api.post('/users/me/mfa/totp/verify', { code }),
    () => [MFA_KEY],
  );

/** DELETE /users/me/mfa/totp with the code the app shows now; the answer is the new status. */
export const useRemoveTotp = () =>
  useEndpoint(
    (api, code: string) => api.del<MfaStatus>('/users/me/mfa/totp', { body: { code } }),
    (status) => [{ key: MFA_KEY, data: status, revalidate: false }],
  );
