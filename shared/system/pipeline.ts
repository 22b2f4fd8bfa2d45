import { AREAS } from './areas.ts';
import type { QueueDecl, ScheduleDecl, SubscriptionDecl } from './functions.ts';

/*
 * The workers' side of the system, assembled from the areas. Apart from functions.ts so that a function,
 * which reads its own queue and bucket names from there, does not load every area's routes.
 */
export const QUEUE_DECLS: readonly QueueDecl[] = AREAS.flatMap((a) => a.queues ?? []);

/** Which object-created events reach which queue, as S3 event notifications do in AWS. */
export const SUBSCRIPTIONS: readonly SubscriptionDecl[] = AREAS.flatMap((a) => a.subscriptions ?? []);

export const SCHEDULES: readonly ScheduleDecl[] = AREAS.flatMap((a) => a.schedules ?? []);
