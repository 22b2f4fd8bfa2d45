export type { StoredSupplier } from './supplier-repository.ts';
export { findSupplier } from './supplier-repository.ts';
export type { StoredTemplate } from './template-store.ts';
export { liveTemplates } from './template-store.ts';
