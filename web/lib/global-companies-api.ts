import useSWR from 'swr';

/** A company as the staff-wide list names it. */
export interface CompanyName {
  _id: string;
  name: string;
  createdAt?: string;
  settings?: { isDemo?: boolean };
}

export const GLOBAL_COMPANIES_KEY = '/companies/global?limit=1000';

/** GET /companies/global: every company, for staff pages and the company list. */
export const useGlobalCompanies = () => useSWR<{ data: CompanyName[]; total: number }>(GLOBAL_COMPANIES_KEY);
