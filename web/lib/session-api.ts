import useSWR from 'swr';
import type { ApiClient } from './api-client.ts';
import { useEndpoint } from './endpoint.ts';

/** The reads of the shell go through the one client, keyed by path. */
export const fetcherOf = (api: ApiClient) => (key: string) => api.get(key);

/** DELETE /sessions: ends the API session before the provider's. */
export const endApiSession = (api: ApiClient) => api.del('/sessions');

/** GET /users/me/companies, asked only for a user of more than one company. */
export const useMyCompanies = <T>(ask: boolean) => useSWR<T>(ask ? '/users/me/companies' : null);

/** PUT /users/{sub}/company-id: the company the user's next sign-in opens. */
export const useChooseCompany = () =>
  useEndpoint((api, sub: string, companyId: string) =>
    api.put(`/users/${encodeURIComponent(sub)}/company-id`, { companyId }),
  );
