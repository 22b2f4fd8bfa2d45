import { type RefObject, useEffect, useRef } from 'react';

/**
 * Whether the page is still open. A file link that arrives after the user has left starts no download:
 * following it would cut short the page they went to.
 */
export function useStillOnPage(): RefObject<boolean> {
  const onPage = useRef(true);
  useEffect(() => {
    onPage.current = true;
    return () => {
      onPage.current = false;
    };
  }, []);
  return onPage;
}
