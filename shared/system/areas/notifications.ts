import type { AreaDecl } from '../area.ts';
import type { QueueDecl, ScheduleDecl } from '../functions.ts';
import { NOTIFICATIONS_AREA_RESOURCES } from '../resources/notifications.ts';

const NOTIFICATIONS_QUEUES: readonly QueueDecl[] = [
  {
    name: 'missing-bills',
    consumer: 'missing-bills',
    batchSize: 1,
    visibilityTimeoutSeconds: 3600,
    maxReceiveCount: 3,
  },
];

const NOTIFICATIONS_SCHEDULES: readonly ScheduleDecl[] = [
  // Daily at 06:00 UTC, before people start work: accounts whose bills have stopped coming.
  {
    name: 'missing-bills',
    expression: 'cron(0 6 * * ? *)',
    queue: 'missing-bills',
    message: { check: 'missing-bills' },
  },
];

/** Notifications and the missing-bills check that writes them. */
export const NOTIFICATIONS_AREA: AreaDecl = {
  name: 'notifications',
  resources: NOTIFICATIONS_AREA_RESOURCES,
  queues: NOTIFICATIONS_QUEUES,
  schedules: NOTIFICATIONS_SCHEDULES,
};
