export type { StoredGroup } from './asset-group-repository.ts';
export { findGroup } from './asset-group-repository.ts';
