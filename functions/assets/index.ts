export { loadAsset } from './asset-records.ts';
export type { StoredAsset } from './asset-repository.ts';
export { assetFieldsOf, countAssetsOfEntity, findAsset, findStoredAsset } from './asset-repository.ts';
