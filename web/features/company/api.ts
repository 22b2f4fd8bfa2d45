import useSWR from 'swr';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import type { NamedRef } from '../../../shared/schemas/register.ts';
import type { ListPage } from '../../../shared/schemas/responses/common.ts';
import type {
  CompanyUser,
  CompanyView,
  GrantSet,
  LogEntry,
  LogoTicket,
  Role,
  WelcomeSentView,
} from '../../../shared/schemas/responses/company.ts';
import { useAllPages } from '../../lib/all-pages.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';
import { GLOBAL_COMPANIES_KEY } from '../../lib/global-companies-api.ts';

export type { ListPage } from '../../../shared/schemas/responses/common.ts';
export type * from '../../../shared/schemas/responses/company.ts';

/** An item that can be granted, as the pickers list it. */
export interface GrantableItem {
  _id: string;
  label: string;
}

/** Every call of the company pages has one SWR key; changes revalidate the keys of their kind. */
export const companyKeys = {
  company: '/users/me/company',
  users: (companyId: string) => `/companies/${companyId}/users`,
  user: (companyId: string, sub: string) => `/companies/${companyId}/users/${sub}`,
  roles: '/roles?limit=1000',
  companyRoles: '/companies/roles',
  role: (id: string) => `/roles/${id}`,
  grantSets: '/permissions?limit=1000',
  grantSet: (id: string) => `/permissions/${id}`,
  log: (skip: number, limit: number) => `/logs?$sort=-createdAt&limit=${limit}&skip=${skip}`,
  global: GLOBAL_COMPANIES_KEY,
  // Read whole, a page at a time (useAllPages).
  entities: '/entities',
  assets: '/assets',
  accounts: '/accounts',
} as const;

export const startsWith = (prefix: string) => (key: unknown) =>
  typeof key === 'string' && key.startsWith(prefix);

export const useCompany = () => useSWR<CompanyView>(companyKeys.company);
export const useCompanyUsers = (companyId: string) =>
  useSWR<ListPage<CompanyUser>>(companyKeys.users(companyId));
export const useCompanyUser = (companyId: string, sub: string | undefined) =>
  useSWR<CompanyUser>(sub ? companyKeys.user(companyId, sub) : null);
export const useCompanyRoles = () => useSWR<ListPage<Role>>(companyKeys.companyRoles);
export const useRoles = () => useSWR<ListPage<Role>>(companyKeys.roles);
export const useRole = (id: string | undefined) => useSWR<Role>(id ? companyKeys.role(id) : null);
export const useGrantSets = () => useSWR<ListPage<GrantSet>>(companyKeys.grantSets);
export const useGrantSet = (id: string | undefined) => useSWR<GrantSet>(id ? companyKeys.grantSet(id) : null);
export const useLog = (skip: number, limit: number) =>
  useSWR<ListPage<LogEntry>>(companyKeys.log(skip, limit), { keepPreviousData: true });

/** An entity, site or meter of the lists read whole: named by its kind's name field. */
type NamedItem = NamedRef & Partial<Pick<AccountView, 'meterPointNumber'>>;

const labelled = (page: ListPage<NamedItem> | undefined): GrantableItem[] =>
  (page?.data ?? [])
    .map((i) => ({ _id: i._id, label: i.legalName ?? i.siteName ?? i.name ?? i.meterPointNumber ?? i._id }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en-GB', { numeric: true }));

/** The company's entities, assets and accounts, for the grant pickers. */
export function useGrantables() {
  const entities = useAllPages<NamedItem>(companyKeys.entities);
  const assets = useAllPages<NamedItem>(companyKeys.assets);
  const accounts = useAllPages<NamedItem>(companyKeys.accounts);
  return {
    items: {
      entities: labelled(entities.data),
      assets: labelled(assets.data),
      accounts: labelled(accounts.data),
    },
    isLoading: entities.isLoading || assets.isLoading || accounts.isLoading,
    error: entities.error ?? assets.error ?? accounts.error,
  };
}

type Body = Record<string, unknown>;

/** POST /companies: a new company, listed with the others. */
export const useCreateCompany = () =>
  useEndpoint(
    (api, body: { name: string; settings: { isDemo: boolean } }) => api.post<CompanyView>('/companies', body),
    () => [companyKeys.global],
  );

/** PATCH /companies/{id}: the answer is the company as it now stands, so it goes straight into the cache. */
export const useUpdateCompany = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch<CompanyView>(`/companies/${id}`, body),
    (next) => [{ key: companyKeys.company, data: next }],
  );

/** PUTs the logo to its presigned URL; the object store answers without the API's bearer token. */
async function putLogo(ticket: LogoTicket, file: Blob): Promise<void> {
  const answer = await fetch(ticket.uploadUrl, {
    method: ticket.method,
    headers: { 'Content-Type': ticket.contentType },
    body: file,
  });
  if (!answer.ok) throw new Error(`The upload failed (${answer.status})`);
}

/** POST /companies/upload-logo, the PUT, then PUT /companies/{id}/logo, when the API checks the file. */
export const useUploadLogo = () =>
  useEndpoint(
    async (api, companyId: string, file: Blob) => {
      const ticket = await api.post<LogoTicket>('/companies/upload-logo', {
        companyId,
        size: file.size,
      });
      await putLogo(ticket, file);
      return api.put<CompanyView>(`/companies/${companyId}/logo`, { key: ticket.key });
    },
    () => [companyKeys.company],
  );

/** PATCH /companies/{id} with settings.showLogo */
export const useShowLogo = () =>
  useEndpoint(
    (api, companyId: string, showLogo: boolean) =>
      api.patch<CompanyView>(`/companies/${companyId}`, { settings: { showLogo } }),
    () => [companyKeys.company],
  );

const usersStale = (companyId: string) => [keysUnder(companyKeys.users(companyId))];

/** POST /companies/{id}/users */
export const useAddUser = (companyId: string) =>
  useEndpoint(
    (api, body: Body) => api.post(companyKeys.users(companyId), body),
    () => usersStale(companyId),
  );

/** PATCH /companies/{id}/users/{sub} */
export const useUpdateUser = (companyId: string) =>
  useEndpoint(
    (api, sub: string, body: Body) => api.patch(companyKeys.user(companyId, sub), body),
    () => usersStale(companyId),
  );

/** DELETE /companies/{id}/users/{sub} */
export const useRemoveUser = (companyId: string) =>
  useEndpoint(
    (api, sub: string) => api.del(companyKeys.user(companyId, sub)),
    () => [companyKeys.users(companyId)],
  );

/** POST /companies/{id}/users/{sub}/welcome-email: sends it again, with a new password where allowed. */
export const useSendWelcome = (companyId: string) =>
  useEndpoint((api, sub: string) =>
    api.post<WelcomeSentView>(`${companyKeys.user(companyId, sub)}/welcome-email`, {}),
  );

/** A named record's calls: POST to the collection, PATCH and DELETE to `{path}/{id}`. */
export interface NamedRecordCalls {
  save: (body: Body, id?: string) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
}

function useNamedRecordCalls(path: string, isListKey: (key: string) => boolean): NamedRecordCalls {
  const save = useEndpoint(
    (api, body: Body, id?: string) => (id ? api.patch(`${path}/${id}`, body) : api.post(path, body)),
    () => [isListKey],
  );
  const remove = useEndpoint(
    (api, id: string) => api.del(`${path}/${id}`),
    () => [isListKey],
  );
  return { save, remove };
}

/** POST /roles, PATCH and DELETE /roles/{id}: the company's role lists change too. */
export const useRoleCalls = () =>
  useNamedRecordCalls('/roles', (key) => startsWith('/roles')(key) || startsWith('/companies/roles')(key));

/** POST /permissions, PATCH and DELETE /permissions/{id} */
export const useGrantSetCalls = () => useNamedRecordCalls('/permissions', startsWith('/permissions'));
