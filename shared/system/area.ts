import type { MailReceiptDecl, QueueDecl, ScheduleDecl, SubscriptionDecl } from './functions.ts';
import type { ResourceDecl } from './resources.ts';
import type { HttpRoute } from './routes.ts';

/**
 * What one area of the product adds to the system: the resources its generic calls serve, its own HTTP
 * routes, and the queues, S3 subscriptions and schedules of its workers. `shared/system/areas.ts` lists
 * every area; the resources, routes, queues and schedules of the system are the union of theirs.
 */
export interface AreaDecl {
  /** As the area's folders are named: `functions/<name>/`, `web/features/<name>/`. */
  name: string;
  resources?: readonly ResourceDecl[];
  /** Routes of its own; a route with a generic route's method and path replaces that generic route. */
  routes?: readonly HttpRoute[];
  queues?: readonly QueueDecl[];
  subscriptions?: readonly SubscriptionDecl[];
  mailReceipts?: readonly MailReceiptDecl[];
  schedules?: readonly ScheduleDecl[];
}
