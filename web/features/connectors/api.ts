import useSWR from 'swr';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { Connector, ScraperRun } from '../../../shared/schemas/responses/connectors.ts';
import type { Supplier } from '../../../shared/schemas/responses/suppliers.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export type {
  Connector,
  RunCounts,
  RunStatus,
  ScraperRun,
} from '../../../shared/schemas/responses/connectors.ts';

import type { RunLogFile } from '../../../shared/schemas/responses/connectors.ts';

/** An item of GET /suppliers, as the connector pickers use it. */
export type ConnectorSupplier = Pick<Supplier, '_id' | 'name' | 'scraperEnabled'>;

/** The SWR keys of the connector pages; the connector worker's live updates name `/scraper-runs…`. */
export const connectorKeys = {
  connectors: '/scraper-runs/connectors',
  runs: '/scraper-runs?limit=100&$sort=-_id',
  suppliers: '/suppliers?limit=1000&type=supplier',
} as const;

export const useConnectors = () => useSWR<ListAnswer<Connector>>(connectorKeys.connectors);
export const useRuns = () => useSWR<ListAnswer<ScraperRun>>(connectorKeys.runs);
export const useConnectorSuppliers = () => useSWR<ListAnswer<ConnectorSupplier>>(connectorKeys.suppliers);

const RUN_READS = [keysUnder('/scraper-runs')];

/** POST /scraper-runs/start-run */
export const useStartRun = () =>
  useEndpoint(
    (api, supplierId: string) => api.post<ScraperRun>('/scraper-runs/start-run', { supplierId }),
    () => RUN_READS,
  );

/** PATCH /companies/{id}/supplier-portals/{supplierId}: the password is sent, never read back. */
export const useSetPortalLogin = (companyId: string) =>
  useEndpoint(
    (api, supplierId: string, body: { username: string; password?: string; enabled: boolean }) =>
      api.patch<unknown>(`/companies/${companyId}/supplier-portals/${supplierId}`, body),
    () => RUN_READS,
  );

/** DELETE /companies/{id}/supplier-portals/{supplierId} */
export const useRemovePortalLogin = (companyId: string) =>
  useEndpoint(
    (api, supplierId: string) => api.del<unknown>(`/companies/${companyId}/supplier-portals/${supplierId}`),
    () => RUN_READS,
  );

/** GET /scraper-runs/{id}/logs/{logId}/download */
export const useRunLog = () =>
  useEndpoint((api, runId: string, logId: string) =>
    api.get<RunLogFile>(`/scraper-runs/${runId}/logs/${logId}/download`),
  );
