import { lazy, Suspense, useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { readProvenance, withoutProvenance } from '../../lib/provenance-link.ts';

// The drill-down and its tables load only when a "Where does this come from?" link is followed.
const ProvenancePanel = lazy(() =>
  import('../../features/analytics/provenance-panel.tsx').then((m) => ({ default: m.ProvenancePanel })),
);

/** Opens the drill-down beside any page whose address names a figure (see web/lib/provenance-link.ts). */
export function ProvenanceHost() {
  const [params, setParams] = useSearchParams();
  const selection = readProvenance(params);
  const close = useCallback(() => setParams((p) => withoutProvenance(p)), [setParams]);
  if (!selection) return null;
  return (
    <Suspense fallback={null}>
      <ProvenancePanel selection={selection} onClose={close} />
    </Suspense>
  );
}
