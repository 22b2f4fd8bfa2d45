export { type DroppedFileOutcome, importDroppedFile } from './dropped-file-import.ts';
export { IMPORT_ADAPTER_OPERATIONS, runQueuedImport } from './import-adapters.ts';
export { queueMeterImport } from './import-request.ts';
export { IMPORTS_OPERATIONS } from './import-service.ts';
export { LOG_OPERATIONS } from './log-service.ts';
export { registerRecordImport } from './record-import.ts';
