import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Whether the page is still open. A file link that arrives after the user has left starts no download:
 * following it would cut short the page they went to. Leaving shows in the address before the page goes
 * away (the next page may still be loading its code, with this one on screen), so both are checked.
 */
export function useStillOnPage(): () => boolean {
  const { pathname } = useLocation();
  const mounted = useRef(true);
  const path = useRef(pathname);
  useEffect(() => {
    path.current = pathname;
  }, [pathname]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(() => mounted.current && window.location.pathname === path.current, []);
}
