export { CALENDAR_OPERATIONS } from './calendar-service.ts';
export { checkAllTargets } from './target-check.ts';
export { TARGET_OPERATIONS } from './target-service.ts';
