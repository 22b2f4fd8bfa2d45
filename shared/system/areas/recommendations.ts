import type { AreaDecl } from '../area.ts';
import { RECOMMENDATIONS_AREA_RESOURCES } from '../resources/recommendations.ts';

/** Recommendations on sites and for the company (their calls are served with the sites). */
export const RECOMMENDATIONS_AREA: AreaDecl = {
  name: 'recommendations',
  resources: RECOMMENDATIONS_AREA_RESOURCES,
};
