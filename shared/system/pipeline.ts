import { AREAS } from './areas.ts';
import type { MailReceiptDecl, QueueDecl, ScheduleDecl, SubscriptionDecl } from './functions.ts';

/*
 * The workers' side of the system, assembled from the areas. Apart from functions.ts so that a function,
 * which reads its own queue and bucket names from there, does not load every area's routes.
 */
export const QUEUE_DECLS: readonly QueueDecl[] = AREAS.flatMap((a) => a.queues ?? []);

/** Which object-created events reach which queue, as S3 event notifications do in AWS. */
export const SUBSCRIPTIONS: readonly SubscriptionDecl[] = AREAS.flatMap((a) => a.subscriptions ?? []);

/** Where received mail is stored and which queue hears of it, with its envelope, from SES. */
export const MAIL_RECEIPTS: readonly MailReceiptDecl[] = AREAS.flatMap((a) => a.mailReceipts ?? []);

export const SCHEDULES: readonly ScheduleDecl[] = AREAS.flatMap((a) => a.schedules ?? []);
