import type { ReactNode } from 'react';
import type { RoutePermission } from '../../shared/access/permission-names.ts';
import { useMayChange } from '../lib/may-change.ts';
import { EmptyPanel } from './page-state.tsx';

/**
 * A page that only changes data, shown to those who may change it; others (staff looking into another
 * company, whose writes there the API refuses) are told why instead of being given a form.
 */
export function ChangesOnly({
  permission = '*',
  children,
}: {
  permission?: RoutePermission;
  children: ReactNode;
}) {
  if (!useMayChange(permission)) {
    return (
      <EmptyPanel>
        You can read this company's data but not change it, so this page is not offered.
      </EmptyPanel>
    );
  }
  return children;
}
