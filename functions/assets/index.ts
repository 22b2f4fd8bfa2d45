export { loadAsset } from './asset-records.ts';
export type { StoredAsset } from './asset-repository.ts';
export {
  assetFieldsOf,
  countAssetsOfEntity,
  findAsset,
  findAssets,
  findStoredAsset,
  pageOfAssets,
} from './asset-repository.ts';
