export { REPORT_OPERATIONS } from './report-operations.ts';
export { buildReport } from './report-worker.ts';
