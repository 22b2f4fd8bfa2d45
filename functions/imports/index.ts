export { type DroppedFileOutcome, importDroppedFile } from './dropped-file-import.ts';
export { IMPORT_ADAPTER_OPERATIONS } from './import-adapters.ts';
export { IMPORTS_OPERATIONS, readFileHead, runImport, runRollback } from './import-service.ts';
export { LOG_OPERATIONS } from './log-service.ts';
export { registerRecordImport } from './record-import.ts';
