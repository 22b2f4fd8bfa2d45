export { listCompanies, readProductSettings } from './admin-repository.ts';
export {
  type CaptureLimits,
  captureLimits,
  featureOn,
  featuresOff,
  gatedBy,
  gatedByResource,
} from './product-settings-service.ts';
export { recordGridFetch } from './staff-repository.ts';
