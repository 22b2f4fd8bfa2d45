import { type AccessSubject, isCompanyWide } from '../../../shared/access/route-access.ts';
import type { TargetScope } from '../../../shared/schemas/targets.ts';
import type { Scopes, TargetView } from './api.ts';

const ALL_SCOPES: readonly TargetScope[] = ['company', 'entity', 'portfolio', 'site'];

export function listOf(scopes: Scopes | undefined, scope: Exclude<TargetScope, 'company'>) {
  return (
    (scope === 'entity' ? scopes?.entities : scope === 'portfolio' ? scopes?.portfolios : scopes?.sites) ?? []
  );
}

/**
 * What the user may set targets on, as the API rules it (by the target's scope): everything for those
 * who see the whole company; otherwise the kinds of scope the API lists as theirs to change, none until
 * it has answered; nothing for staff looking into another company.
 */
export function writableScopeKinds(access: AccessSubject, scopes: Scopes | undefined): TargetScope[] {
  if (access.staffView === true) return [];
  if (isCompanyWide(access)) return [...ALL_SCOPES];
  return ALL_SCOPES.filter((s) =>
    s === 'company' ? scopes?.company === true : listOf(scopes, s).length > 0,
  );
}

/** Whether the user may change (or delete) this target: they may change what it covers. */
export function mayChangeTarget(
  kinds: readonly TargetScope[],
  scopes: Scopes | undefined,
  t: TargetView,
): boolean {
  if (!kinds.includes(t.scope)) return false;
  if (t.scope === 'company' || kinds.length === ALL_SCOPES.length) return true;
  return listOf(scopes, t.scope).some((o) => o._id === t.scopeId);
}
