import useSWR from 'swr';
import type { AccountView } from '../../shared/schemas/account-views.ts';

/** GET /accounts/{id}: one meter, for its own pages and for the pages of its bills. */
export const useAccount = (id: string | undefined) => useSWR<AccountView>(id ? `/accounts/${id}` : null);
