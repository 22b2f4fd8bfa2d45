import { putMembership } from '../../../functions/core/access/membership-repository.ts';
import { putProfile } from '../../../functions/core/access/user-repository.ts';
import { openAccountStore } from '../oidc/account-store.ts';
import {
  type CompanyKey,
  DEMO_PASSWORD,
  DEMO_USERS,
  type GrantPlan,
  ROLE_PLANS,
  type RoleKey,
} from './demo-users.ts';
import type { PlannedCompany } from './plan-company.ts';
import { stamped } from './plan-items.ts';

/** The role names of a user, as the identity provider puts them in the token's roles claim. */
function roleNames(user: (typeof DEMO_USERS)[number]): string[] {
  const names: string[] = [];
  for (const m of user.memberships) {
    const name = ROLE_PLANS.find((r) => r.key === m.role)?.name;
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Sign-in accounts in the provider's store; an existing e-mail keeps its subject. Returns subjects by e-mail. */
export async function seedSignInAccounts(stateDir: string): Promise<Map<string, string>> {
  const store = openAccountStore(stateDir);
  const subs = new Map<string, string>();
  for (const user of DEMO_USERS) {
    const account = await store.upsert({
      email: user.email,
      name: user.name,
      password: DEMO_PASSWORD,
      roles: roleNames(user),
    });
    subs.set(user.email, account.sub);
  }
  return subs;
}

function resolve(names: readonly string[] | undefined, ids: Map<string, string>, what: string): string[] {
  return (names ?? []).map((name) => {
    const id = ids.get(name);
    if (!id)
      throw new Error(`A demo user's grant names ${what} "${name}", which the demo data does not have`);
    return id;
  });
}

function grantsOf(plan: GrantPlan | undefined, company: PlannedCompany) {
  const { entities, assets, accounts } = company.ids;
  return {
    entities: {
      read: resolve(plan?.entities?.read, entities, 'entity'),
      write: resolve(plan?.entities?.write, entities, 'entity'),
    },
    assets: {
      read: resolve(plan?.assets?.read, assets, 'asset'),
      write: resolve(plan?.assets?.write, assets, 'asset'),
    },
    accounts: {
      read: resolve(plan?.accounts?.read, accounts, 'account'),
      write: resolve(plan?.accounts?.write, accounts, 'account'),
    },
  };
}

/**
 * Each user's membership of each company (the company's `users` item, keyed by subject) and their profile,
 * written with the membership and profile repositories that adding a user to a company writes with. Not
 * through POST /users itself: that call makes the person's sign-in account with a password nobody knows
 * and mails it, where the demo users sign in with the demo password. The first company listed is the one
 * they land in; staff are staff in their profile.
 */
export async function seedMemberships(
  subs: Map<string, string>,
  companies: Record<CompanyKey, PlannedCompany>,
  roles: Record<CompanyKey, Map<RoleKey, string>>,
): Promise<{ memberships: number; users: { email: string; role: string }[] }> {
  let memberships = 0;
  const users: { email: string; role: string }[] = [];
  for (const user of DEMO_USERS) {
    const sub = subs.get(user.email);
    if (!sub) throw new Error(`No sign-in account for ${user.email}`);
    for (const m of user.memberships) {
      const company = companies[m.company];
      const roleId = m.role ? roles[m.company].get(m.role) : undefined;
      const item = stamped(
        'users',
        {
          email: user.email,
          name: user.name,
          ...(roleId ? { roleId } : {}),
          permissions: [...(m.permissions ?? [])],
          grants: grantsOf(m.grants, company),
        },
        { id: sub, companyId: company.companyId, createdBy: sub },
      );
      await putMembership(company.companyId, item);
      memberships++;
    }
    const companyIds = user.memberships.map((m) => companies[m.company].companyId);
    await putProfile({
      sub,
      email: user.email,
      name: user.name,
      isAdmin: user.isAdmin === true,
      currentCompanyId: companyIds[0],
      companyIds,
    });
    const first = user.memberships[0];
    const roleName = first?.role ? ROLE_PLANS.find((r) => r.key === first.role)?.name : undefined;
    users.push({
      email: user.email,
      role: user.isAdmin ? 'admin' : (roleName ?? first?.permissions?.join(', ') ?? ''),
    });
  }
  return { memberships, users };
}
