export type { HalfHourlyInput, HalfHourlyWriteResult } from './analytics-half-hourly.ts';
export { writeHalfHourlyDays } from './analytics-half-hourly.ts';
