import useSWR from 'swr';
import type { PermissionName } from '../../../shared/access/permission-names.ts';
import type { CALENDAR_PERIODS } from '../../../shared/schemas/company.ts';
import type { Grants } from './grants.ts';

export interface ListPage<T> {
  data: T[];
  total: number;
  limit?: number;
  skip?: number;
}

export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];

export interface CompanySettingsView {
  isDemo?: boolean;
  showLogo?: boolean;
  logoUrl?: string;
  logoKey?: string;
  calendarPeriod?: CalendarPeriod;
  hideCostData?: boolean;
  invoiceCategories?: string[];
  miscInvoiceCategories?: string[];
  messageCategories?: string[];
  documentCategories?: string[];
  invoiceCaptureEmail?: string;
  invoiceFileNameLimit?: number;
}

export interface CompanyView {
  _id: string;
  name: string;
  settings?: CompanySettingsView;
  createdAt?: string;
}

/** A member as GET /companies/{id}/users answers. */
export interface CompanyUser {
  _id: string;
  userSub: string;
  email: string;
  name: string;
  roleId: string | null;
  role: { _id: string; name: string } | null;
  permissions: PermissionName[];
  grants?: Partial<Grants>;
}

export interface Role {
  _id: string;
  name: string;
  permissions: PermissionName[];
}

/** A named set of grants (the generic `permissions` resource). */
export interface GrantSet {
  _id: string;
  name: string;
  userSub?: string;
  grants?: Partial<Grants>;
}

export interface LogEntry {
  _id: string;
  type: string;
  model?: string;
  modelId?: string;
  message?: string;
  userSub?: string;
  userName?: string;
  createdAt: string;
}

export interface LogoTicket {
  uploadUrl: string;
  method: 'PUT';
  contentType: string;
  key: string;
  previewUrl?: string;
}

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
  global: '/companies/global?limit=1000',
  entities: '/entities?limit=100000',
  assets: '/assets?limit=100000',
  accounts: '/accounts?limit=100000',
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
export const useGlobalCompanies = () => useSWR<ListPage<CompanyView>>(companyKeys.global);

interface NamedItem {
  _id: string;
  legalName?: string;
  siteName?: string;
  name?: string;
  meterPointNumber?: string;
}

const labelled = (page: ListPage<NamedItem> | undefined): GrantableItem[] =>
  (page?.data ?? [])
    .map((i) => ({ _id: i._id, label: i.legalName ?? i.siteName ?? i.name ?? i.meterPointNumber ?? i._id }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en-GB', { numeric: true }));

/** The company's entities, assets and accounts, for the grant pickers. */
export function useGrantables() {
  const entities = useSWR<ListPage<NamedItem>>(companyKeys.entities);
  const assets = useSWR<ListPage<NamedItem>>(companyKeys.assets);
  const accounts = useSWR<ListPage<NamedItem>>(companyKeys.accounts);
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
