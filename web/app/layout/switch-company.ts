import { useLocation } from 'react-router';
import { showToast } from '../../components/toast-store.ts';
import { useServices, useSession } from '../../lib/app-context.tsx';
import { useChooseCompany } from '../../lib/session-api.ts';

/** The chosen company is stored for the user, then sign-in runs again back to this page (01 §4). */
export function useSwitchCompany(): (companyId: string) => Promise<void> {
  const { me } = useSession();
  const { auth } = useServices();
  const chooseCompany = useChooseCompany();
  const location = useLocation();
  return async (companyId: string) => {
    try {
      await chooseCompany(me.sub, companyId);
      await auth.signIn(location.pathname + location.search + location.hash);
    } catch (e) {
      showToast(e instanceof Error ? e.message : 'Could not switch company', 'error');
    }
  };
}
