import { httpFunction } from '../../middleware/http-function.ts';
import { KIOSK_OPERATIONS } from '../../services/kiosk-service.ts';
import { LOOKUP_OPERATIONS } from '../../services/lookup-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SEARCH_OPERATIONS } from '../../services/search-service.ts';

export const handler = httpFunction('util', {
  ...GENERIC_OPERATIONS,
  ...KIOSK_OPERATIONS,
  ...LOOKUP_OPERATIONS,
  ...SEARCH_OPERATIONS,
});
