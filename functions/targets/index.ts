export { CALENDAR_OPERATIONS } from './calendar-service.ts';
export { TARGET_OPERATIONS } from './target-service.ts';
