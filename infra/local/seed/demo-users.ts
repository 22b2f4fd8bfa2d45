import type { PermissionName } from '../../../shared/access/permission-names.ts';

/** The one password every demo account signs in with. */
export const DEMO_PASSWORD = 'Voltfolio-demo-2026!';

export type CompanyKey = 'demo' | 'northwind';

/** Roles every company starts with; a name starting with 'entity' marks an entity-group user. */
export const ROLE_PLANS = [
  { key: 'owner', name: 'Owner', permissions: ['company_owner', 'company_admin'] },
  { key: 'user', name: 'Company user', permissions: ['company_user'] },
  { key: 'entity', name: 'entity viewer', permissions: ['entity_user'] },
  { key: 'validator', name: 'Bill validator', permissions: ['bill_validation'] },
] as const satisfies readonly { key: string; name: string; permissions: readonly PermissionName[] }[];

export type RoleKey = (typeof ROLE_PLANS)[number]['key'];

/** Items are named as the demo data names them: entities by legal name, assets by site, accounts by name. */
export interface GrantPlan {
  entities?: { read?: readonly string[]; write?: readonly string[] };
  assets?: { read?: readonly string[]; write?: readonly string[] };
  accounts?: { read?: readonly string[]; write?: readonly string[] };
}

export interface MembershipPlan {
  company: CompanyKey;
  role?: RoleKey;
  /** Held directly, beside the role's */
  permissions?: readonly PermissionName[];
  grants?: GrantPlan;
}

export interface DemoUserPlan {
  email: string;
  name: string;
  isAdmin?: boolean;
  memberships: readonly MembershipPlan[];
}

export const DEMO_USERS: readonly DemoUserPlan[] = [
  {
    email: 'admin@voltfolio.test',
    name: 'Alex Carter',
    isAdmin: true,
    memberships: [{ company: 'demo', permissions: ['admin'] }],
  },
  { email: 'owner@demo.test', name: 'Olivia Bennett', memberships: [{ company: 'demo', role: 'owner' }] },
  { email: 'user@demo.test', name: 'Sam Patel', memberships: [{ company: 'demo', role: 'user' }] },
  {
    email: 'entity@demo.test',
    name: 'Ellie Morgan',
    memberships: [
      { company: 'demo', role: 'entity', grants: { entities: { read: ['Demo Estates Retail Ltd'] } } },
    ],
  },
  {
    email: 'asset@demo.test',
    name: 'Arjun Shah',
    memberships: [
      {
        company: 'demo',
        permissions: ['asset_user'],
        grants: {
          assets: { read: ['Hardman Court', 'Colmore Gate'], write: ['Hardman Court', 'Colmore Gate'] },
        },
      },
    ],
  },
  {
    email: 'site@demo.test',
    name: 'Priya Nair',
    memberships: [
      { company: 'demo', permissions: ['asset_user'], grants: { assets: { read: ['Hardman Court'] } } },
    ],
  },
  {
    email: 'account@demo.test',
    name: 'Grace Okafor',
    memberships: [
      {
        company: 'demo',
        permissions: ['account_user'],
        grants: {
          accounts: {
            read: ['Aldgate House Electricity', 'Aldgate House Gas', 'Temple Quay Point Electricity'],
          },
        },
      },
    ],
  },
  {
    email: 'validator@demo.test',
    name: 'Tom Hughes',
    memberships: [
      {
        company: 'demo',
        role: 'validator',
        grants: {
          assets: {
            read: [
              'Foregate Street Retail Park',
              '128 High Street Guildford',
              '54 Princes Street',
              'Queen Street Arcade',
              '210 Oxford Street',
            ],
          },
        },
      },
    ],
  },
  {
    email: 'api@demo.test',
    name: 'Demo Estates API',
    memberships: [{ company: 'demo', permissions: ['api_access_only'] }],
  },
  {
    email: 'multi@demo.test',
    name: 'Morgan Reid',
    memberships: [
      { company: 'demo', role: 'user' },
      { company: 'northwind', role: 'user' },
    ],
  },
  {
    email: 'owner@northwind.test',
    name: 'Hannah Clarke',
    memberships: [{ company: 'northwind', role: 'owner' }],
  },
];
