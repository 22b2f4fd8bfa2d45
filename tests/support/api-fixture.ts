import { putProfile } from '../../functions/core/access/user-repository.ts';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { Caller } from '../../shared/access/caller.ts';
import type { PermissionName } from '../../shared/access/permission-names.ts';
import { findResource } from '../../shared/system/resources.ts';
import { startTestTable, type TestTable } from './dynamo.ts';
import { startTestIssuer, type TestIssuer } from './tokens.ts';

export interface ApiFixture {
  table: TestTable;
  issuer: TestIssuer;
  stop(): Promise<void>;
}

/** Points the functions at a fresh table and a test token issuer. Call before importing any handler. */
export async function startApiFixture(): Promise<ApiFixture> {
  const table = await startTestTable();
  const issuer = await startTestIssuer();
  Object.assign(process.env, {
    AWS_REGION: 'eu-west-2',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
    TABLE_NAME: table.tableName,
    AUTH_PROVIDER: 'oidc',
    AUTH_ISSUER: issuer.issuer,
    AUTH_JWKS_URI: issuer.jwksUri,
    AUTH_AUDIENCE: issuer.audience,
    AUTH_CLIENT_ID: issuer.clientId,
    API_BASE_PATH: '/api',
    LOG_LEVEL: 'error',
    // Sites are placed from their postcodes as they are created: never from the real service in a test.
    POSTCODES_API_URL: process.env.POSTCODES_API_URL ?? 'http://127.0.0.1:9',
  });
  return {
    table,
    issuer,
    stop: async () => {
      await issuer.stop();
      await table.stop();
    },
  };
}

export async function createCompany(name: string, settings: Record<string, unknown> = {}): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await putItem(
    { pk: keys.collection({}, 'companies'), indexes: [], searchFields: ['name'] },
    {
      _id: id,
      name,
      settings: { isDemo: false, showLogo: false, ...settings },
      createdAt: now,
      updatedAt: now,
    },
  );
  return id;
}

export interface TestUser {
  sub: string;
  email: string;
  companyIds: string[];
  permissions?: PermissionName[];
  grants?: Caller['grants'];
  isAdmin?: boolean;
  roleId?: string;
}

/** A company's owner, who also administers it: the person most tests call as. */
export async function createOwner(sub: string, email: string, companyId: string): Promise<void> {
  await createUser({ sub, email, companyIds: [companyId], permissions: ['company_owner', 'company_admin'] });
}

/** A person with a profile and a membership in each of their companies, as the seed and admin pages make them. */
export async function createUser(user: TestUser): Promise<void> {
  await putProfile({
    sub: user.sub,
    email: user.email,
    name: user.email.split('@')[0] ?? user.email,
    isAdmin: user.isAdmin === true,
    currentCompanyId: user.companyIds[0],
    companyIds: user.companyIds,
  });
  const users = findResource('users');
  for (const companyId of user.companyIds) {
    await putItem(
      { pk: keys.collection({ companyId }, 'users'), indexes: users?.indexes ?? [], searchFields: ['email'] },
      {
        _id: user.sub,
        companyId,
        email: user.email,
        name: user.email,
        permissions: user.permissions ?? [],
        ...(user.roleId ? { roleId: user.roleId } : {}),
        grants: user.grants ?? {
          entities: { read: [], write: [] },
          assets: { read: [], write: [] },
          accounts: { read: [], write: [] },
        },
      },
    );
  }
}
