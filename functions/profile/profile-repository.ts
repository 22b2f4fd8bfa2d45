/**
 * | pattern                                  | key condition                                  | index |
 * | ---------------------------------------- | ---------------------------------------------- | ----- |
 * | a member record of a company (by sub)    | pk = C#{companyId}#users, sk = sub             | table |
 * | write a client error report              | pk = C#{companyId}#logs, sk = id               | table |
 * | a page of the caller's notifications     | generic list of C#{companyId}#notifications    | gsi   |
 *
 * The user's own profile lives in core/access (user-repository): sign-in reads it before any area.
 */
import { type CollectionRef, declaredRef } from '../core/data/item-repository.ts';

export const membersRef = (companyId: string): CollectionRef => declaredRef('users', { companyId });
export const logsRef = (companyId: string): CollectionRef => declaredRef('logs', { companyId });
export const notificationsRef = (companyId: string): CollectionRef =>
  declaredRef('notifications', { companyId });
