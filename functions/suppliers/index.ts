export type { StoredSupplier } from './supplier-repository.ts';
export { findSupplier } from './supplier-repository.ts';
