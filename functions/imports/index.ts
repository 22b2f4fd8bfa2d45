export { IMPORTS_OPERATIONS, readFileHead, runImport, runRollback } from './import-service.ts';
