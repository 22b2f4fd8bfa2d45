export type { EntityHierarchy } from './entity-structure-service.ts';
export { loadHierarchy } from './entity-structure-service.ts';
