import useSWR from 'swr';
import type { ProvenanceAnswer } from '../../../shared/schemas/provenance.ts';
import type { FileLink } from '../../../shared/schemas/responses/invoices.ts';

export interface ProvenanceAsk {
  from: string;
  to: string;
  assetId?: string | undefined;
  accountId?: string | undefined;
  utilityType?: string | undefined;
}

export type { FileLink as DocumentLink } from '../../../shared/schemas/responses/invoices.ts';

/** One SWR key per call of the drill-down. */
export const provenanceKeys = {
  provenance: (q: ProvenanceAsk) => {
    const params = new URLSearchParams({ from: q.from, to: q.to });
    if (q.assetId) params.set('assetId', q.assetId);
    if (q.accountId) params.set('accountId', q.accountId);
    if (q.utilityType) params.set('utilityType', q.utilityType);
    return `/analytics/provenance?${params.toString()}`;
  },
  document: (invoiceId: string) => `/invoices/${invoiceId}/download?preview=true`,
} as const;

/** GET /analytics/provenance: a figure taken apart into sites, meters and bills. */
export const useProvenance = (q: ProvenanceAsk) => useSWR<ProvenanceAnswer>(provenanceKeys.provenance(q));

/** GET /invoices/{id}/download?preview=true: a short-lived link for showing a bill's document. */
export const useBillDocument = (invoiceId: string | undefined) =>
  useSWR<FileLink>(invoiceId ? provenanceKeys.document(invoiceId) : null, {
    // The link expires: a fresh one each time the document is opened, never a cached one.
    revalidateOnMount: true,
    dedupingInterval: 0,
  });
