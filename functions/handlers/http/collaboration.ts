import { COLLABORATION_AREA } from '../../../shared/system/areas/collaboration.ts';
import { MARKETPLACE_AREA } from '../../../shared/system/areas/marketplace.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { MESSAGE_OPERATIONS } from '../../collaboration/message-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { MARKETPLACE_OPERATIONS } from '../../marketplace/carbon-market-service.ts';
import { gatedByResource } from '../../staff-tools/index.ts';

/**
 * The stored shapes of threads, replies and catalogue projects are parsed by the generic writes only: they
 * are built on the first call that waits for them, not at start.
 */
registerResourceSchemasLater(
  'collaboration',
  () => import('../../../shared/system/resource-schemas/collaboration.ts'),
);

export const handler = httpFunction(
  'collaboration',
  [COLLABORATION_AREA, MARKETPLACE_AREA],
  {
    // A feature a staff member has switched off answers its generic calls as if they did not exist.
    ...gatedByResource(GENERIC_OPERATIONS, { messages: 'discussions', 'marketplace/carbon': 'marketplace' }),
    ...MARKETPLACE_OPERATIONS,
    ...MESSAGE_OPERATIONS,
  },
  // Threads and the catalogue parse with schemas of their own.
  { withoutResourceSchemas: [...Object.keys(MARKETPLACE_OPERATIONS), ...Object.keys(MESSAGE_OPERATIONS)] },
);
