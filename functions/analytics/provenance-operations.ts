import { provenanceQuery } from '../../shared/schemas/provenance.ts';
import type { Operations } from '../core/middleware/api-context.ts';
import { onFirstCall } from '../core/middleware/operation.ts';

/** A figure's provenance is asked for when someone questions it: its tracing code loads on that call. */
export const PROVENANCE_OPERATIONS: Operations = {
  'analytics.provenance': onFirstCall(
    { query: provenanceQuery },
    async () => (await import('./provenance-service.ts')).provenance,
  ),
};
