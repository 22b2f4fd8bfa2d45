export { readProductSettings } from './admin-repository.ts';
