import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem, type ItemLineage } from '../../shared/access/item-access.ts';
import { canUseRoute, isCompanyWide } from '../../shared/access/route-access.ts';
import { recipientChoicesQuery } from '../../shared/reports/schedule-queries.ts';
import type { RecipientChoice, RecipientChoices } from '../../shared/schemas/responses/reports.ts';
import { findResource } from '../../shared/system/resources.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import type { OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { coveredSites } from './report-service.ts';

const REPORT_READERS = findResource('reports')?.read ?? [];

/**
 * Whether a member could open the report themselves: one of the whole company is company-wide users',
 * one of sites is theirs who may read every one of those sites.
 */
function mayRead(member: Caller, sites: readonly ItemLineage[] | undefined): boolean {
  if (!canUseRoute(REPORT_READERS, member)) return false;
  if (!sites) return isCompanyWide(member);
  return sites.every((lineage) => canAccessItem(member, 'read', lineage));
}

/**
 * GET /scheduled-reports/recipients?scopeType=&scopeId=: the company's members with an address who may
 * read a report of the scope, judged as their own requests would be, so a schedule mails nobody a report
 * of sites they were not granted.
 */
export const recipientChoices = operation(
  { query: recipientChoicesQuery },
  async (ctx): Promise<OpResult> => {
    const { companyId } = ctx.caller;
    const assetIds = await coveredSites(ctx, ctx.query);
    const [memberships, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
    const resolver = new LineageResolver(companyId);
    const sites =
      ctx.query.scopeType === 'company'
        ? undefined
        : (await Promise.all(assetIds.map((id) => resolver.lineage('assets', id)))).filter(
            (l): l is ItemLineage => l !== undefined,
          );
    const data: RecipientChoice[] = [];
    for (const m of memberships) {
      if (m.deleted === true || typeof m.email !== 'string' || !m.email) continue;
      if (!mayRead(memberCaller(companyId, m._id, m, roles), sites)) continue;
      const name = typeof m.name === 'string' && m.name ? m.name : m.email;
      data.push({ userSub: m._id, name, email: m.email.toLowerCase() });
    }
    data.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
    return { body: { data } satisfies RecipientChoices };
  },
);
