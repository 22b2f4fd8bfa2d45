export { loadAsset } from './asset-records.ts';
