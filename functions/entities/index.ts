export type { StoredEntity } from './entity-repository.ts';
export { findStoredEntity } from './entity-repository.ts';
export type { EntityHierarchy } from './entity-structure-service.ts';
export { loadHierarchy } from './entity-structure-service.ts';
