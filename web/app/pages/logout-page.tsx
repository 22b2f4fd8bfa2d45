import { useEffect } from 'react';
import { FullPageLoader } from '../../components/page-state.tsx';
import { useServices } from '../../lib/app-context.tsx';

/** Ends the API session, then the provider session; the provider sends the browser back to `/`. */
export function LogoutPage() {
  const { logOut } = useServices();
  useEffect(() => {
    void logOut();
  }, [logOut]);
  return <FullPageLoader />;
}
