export type { StoredSupplier } from './supplier-repository.ts';
export { allSuppliers, findSupplier } from './supplier-repository.ts';
export type { StoredTemplate } from './template-store.ts';
export { liveTemplates } from './template-store.ts';
