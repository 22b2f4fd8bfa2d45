import { messageMembersQuery } from '../../schemas/collaboration.ts';
import { genericListQuery, genericSearchQuery, genericSubListQuery } from '../../schemas/generic-queries.ts';
import type { AreaDecl } from '../area.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import { COLLABORATION_AREA_RESOURCES } from '../resources/collaboration.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { AuthKind, HttpMethod, HttpRoute, ItemCheck } from '../routes.ts';

const route = routesOf('collaboration');
// Machines (report rendering) read what a page shows, as they read every generic list.
const READS: readonly AuthKind[] = ['user', 'machine'];
/**
 * Whoever may read a thread's site takes part in it: replying, assigning and resolving are conversation,
 * not changes to the site, so they need the site's read grant only (its write grant would shut readers out).
 */
const onThread: ItemCheck = { type: 'assets', resource: 'messages', param: 'id', access: 'read' };
const REPLIES = { resource: 'messages', subResource: 'replies', item: onThread, auth: READS } as const;
const thread = (method: HttpMethod, path: string, op: string): HttpRoute =>
  route(method, path, op, PORTFOLIO_READERS, { resource: 'messages', item: onThread });

/** Discussions (02 §7 Kiosks, marketplace, messages): threads on a site, their replies and attachments. */
const MESSAGE_ROUTES: readonly HttpRoute[] = [
  // The site is named in the body or query; the operations check it.
  route('POST', '/messages', 'messages.create', PORTFOLIO_READERS, { resource: 'messages' }),
  route('POST', '/messages/bulk', 'messages.bulkRefused', PORTFOLIO_READERS, { resource: 'messages' }),
  route('GET', '/messages/members', 'messages.members', PORTFOLIO_READERS),
  // The generic list, search and reads of replies, each answered as its view.
  route('GET', '/messages', 'messages.list', PORTFOLIO_READERS, { resource: 'messages', auth: READS }),
  route('GET', '/messages/search', 'messages.search', PORTFOLIO_READERS, {
    resource: 'messages',
    auth: READS,
  }),
  route('POST', '/messages/upload-attachment', 'messages.uploadAttachment', PORTFOLIO_READERS),
  thread('GET', '/messages/{id}', 'messages.get'),
  thread('PATCH', '/messages/{id}', 'messages.update'),
  thread('PUT', '/messages/{id}/assign-user', 'messages.assign'),
  thread('POST', '/messages/{id}/attachments', 'messages.attach'),
  thread('GET', '/messages/{id}/attachments/{attachmentId}/download', 'messages.download'),
  route('GET', '/messages/{id}/replies', 'messages.replies.list', PORTFOLIO_READERS, REPLIES),
  route('GET', '/messages/{id}/replies/{subId}', 'messages.replies.get', PORTFOLIO_READERS, REPLIES),
  thread('POST', '/messages/{id}/replies', 'messages.replies.create'),
  thread('PATCH', '/messages/{id}/replies/{subId}', 'messages.replies.update'),
  thread('DELETE', '/messages/{id}/replies/{subId}', 'messages.replies.delete'),
  thread(
    'GET',
    '/messages/{id}/replies/{replyId}/attachments/{attachmentId}/download',
    'messages.attachments.download',
  ),
];

/** Discussions on sites. */
export const COLLABORATION_AREA: AreaDecl = {
  name: 'collaboration',
  resources: COLLABORATION_AREA_RESOURCES,
  routes: withQueries(MESSAGE_ROUTES, {
    'GET /messages/members': messageMembersQuery,
    'GET /messages': genericListQuery,
    'GET /messages/search': genericSearchQuery,
    'GET /messages/{id}/replies': genericSubListQuery,
  }),
};
