export { REPORT_OPERATIONS } from './report-service.ts';
export { buildReport } from './report-worker.ts';
