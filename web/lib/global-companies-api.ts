import useSWR from 'swr';
import type { ListPage } from '../../shared/schemas/responses/common.ts';
import type { CompanyName } from '../../shared/schemas/responses/company.ts';

export type { CompanyName } from '../../shared/schemas/responses/company.ts';

export const GLOBAL_COMPANIES_KEY = '/companies/global?limit=1000';

/** GET /companies/global: every company, for staff pages and the company list. */
export const useGlobalCompanies = () => useSWR<ListPage<CompanyName>>(GLOBAL_COMPANIES_KEY);
