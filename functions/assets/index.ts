export { loadAsset } from './asset-records.ts';
export type { StoredAsset } from './asset-repository.ts';
export { findAsset } from './asset-repository.ts';
