import { importFileQuery } from '../../../shared/schemas/import-file-query.ts';
import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { ASSETS_AREA } from '../../../shared/system/areas/assets.ts';
import { RECOMMENDATIONS_AREA } from '../../../shared/system/areas/recommendations.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { ASSET_LIST_OPERATIONS } from '../../assets/asset-list-service.ts';
import { presentAsset } from '../../assets/asset-records.ts';
import type { Operation, Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { onFirstCall } from '../../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { registerResourceView } from '../../core/resources/resource-views.ts';

/**
 * Site imports load their planner (and the import machinery under it) on first use: few calls need it,
 * and every cold start of the function would otherwise carry it.
 */
const importOperation = (
  name: 'assets.import' | 'assets.importRollback',
  declared: Parameters<typeof onFirstCall>[0] = {},
): Operation =>
  onFirstCall(declared, async () => {
    const { ASSET_IMPORT_OPERATIONS } = await import('../../assets/asset-import-service.ts');
    const op = ASSET_IMPORT_OPERATIONS[name];
    if (!op) throw new Error(`${name} is not an operation of site imports`);
    return op;
  });

const ASSET_IMPORT_OPERATIONS: Operations = {
  'assets.import': importOperation('assets.import', { query: importFileQuery }),
  'assets.importRollback': importOperation('assets.importRollback'),
};

/**
 * The site list and a site's page are most of the function's calls: its other operations load on the
 * first call of one, in one piece, so a cold start serving the list neither builds their modules and
 * schemas nor reads a file per module they share with the list.
 */
const laterOperations = async (): Promise<Operations> => (await import('./later/assets.ts')).LATER_OPERATIONS;

/**
 * The schemas of sites, projects, tenants and recommendations are most of what the function would build
 * at start (about 200 of its 280 zod schemas), and only writes parse them: they are built on the first
 * call of an operation not listed below, or of a site list with filters.
 */
registerResourceSchemasLater('assets', () => import('../../../shared/system/resource-schemas/assets.ts'));

/** A site's generic reads (its search) answer its pictures' links, as the site list does. */
registerResourceView('assets', presentAsset);

export const handler = httpFunction(
  'assets',
  [ASSETS_AREA, RECOMMENDATIONS_AREA, ANALYTICS_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...ASSET_IMPORT_OPERATIONS,
    ...ASSET_LIST_OPERATIONS,
  },
  {
    later: laterOperations,
    withoutResourceSchemas: [
      'assets.list',
      'assets.get',
      'assets.assetGroups',
      'assets.accountTypes',
      'assets.timeline.list',
    ],
  },
);
