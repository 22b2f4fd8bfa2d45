import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import type { Caller } from '../../shared/access/caller.ts';
import type { PermissionName } from '../../shared/access/permission-names.ts';
import { BUCKETS, FUNCTIONS, type HttpFunctionName } from '../../shared/system/functions.ts';
import { routePrefixes } from '../../shared/system/routes.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import {
  httpEvent,
  lambdaContext,
  parseResult,
  type TestRequest,
  type TestResponse,
} from '../support/http-events.ts';

export type Api = (req: TestRequest) => Promise<TestResponse>;

export interface RegisterWorld {
  fx: ApiFixture;
  api: Api;
  demoId: string;
  otherId: string;
  /** Tokens by user name. */
  token: (name: string) => string;
  /** Adds a user of Demo Estates with these permissions and grants; answers their token. */
  addUser: (
    name: string,
    permissions: PermissionName[],
    grants?: Partial<Caller['grants']>,
  ) => Promise<string>;
  /** The S3 emulator's address, when asked for. */
  s3Endpoint?: string;
  stop: () => Promise<void>;
}

const EMPTY = { read: [], write: [] };

type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Calls the HTTP functions as the API gateway does (the first path segment picks the function), importing
 * each function the first time a request needs it, so these tests load only the areas they call.
 */
function lazyApi(): Api {
  const handlers = new Map<HttpFunctionName, Promise<HttpHandler>>();
  const prefixes = routePrefixes();
  const load = (fn: HttpFunctionName) => {
    let found = handlers.get(fn);
    if (!found) {
      const decl = FUNCTIONS.find((f) => f.name === fn);
      if (!decl) throw new Error(`No function ${fn}`);
      found = import(path.resolve(import.meta.dirname, '../..', decl.entry)).then(
        (m: { handler: HttpHandler }) => m.handler,
      );
      handlers.set(fn, found);
    }
    return found;
  };
  return async (req) => {
    const prefix = req.path.split('?')[0]?.split('/')[1] ?? '';
    const fn = prefixes.get(prefix) ?? 'session';
    const result = await (await load(fn))(httpEvent(req), lambdaContext(fn));
    return parseResult(typeof result === 'string' ? { statusCode: 200, body: result } : result);
  };
}

/** An S3 emulator holding every declared bucket, and the environment that points the functions at it. */
async function startS3() {
  const aws = await startFauxqs({ port: 0, logger: false });
  const s3 = new S3Client({
    region: 'eu-west-2',
    endpoint: aws.address,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
    forcePathStyle: true,
  });
  for (const bucket of BUCKETS) {
    await s3.send(new CreateBucketCommand({ Bucket: `voltfolio-${bucket}` }));
    process.env[`BUCKET_${bucket.toUpperCase()}`] = `voltfolio-${bucket}`;
  }
  s3.destroy();
  Object.assign(process.env, { AWS_ENDPOINT_URL_S3: aws.address, S3_FORCE_PATH_STYLE: 'true' });
  return aws;
}

/**
 * Two companies on a fresh table: Demo Estates with its owner, and Northwind with its own owner (the
 * outsider of the cross-company checks). With `s3`, an S3 emulator holds the buckets.
 */
export async function startRegisterWorld(opts: { s3?: boolean } = {}): Promise<RegisterWorld> {
  const fx = await startApiFixture();
  const aws = opts.s3 ? await startS3() : undefined;
  const api = lazyApi();
  const demoId = await createCompany('Demo Estates Ltd', { isDemo: true });
  const otherId = await createCompany('Northwind Property Co');
  const owners: [string, string][] = [
    ['owner', demoId],
    ['outsider', otherId],
  ];
  for (const [sub, companyId] of owners) {
    await createUser({
      sub,
      email: `${sub}@${companyId === demoId ? 'demo' : 'northwind'}.test`,
      companyIds: [companyId],
      permissions: ['company_owner', 'company_admin'],
    });
  }
  const token = (name: string) => fx.issuer.accessToken(name);
  return {
    fx,
    api,
    demoId,
    otherId,
    token,
    addUser: async (name, permissions, grants = {}) => {
      await createUser({
        sub: name,
        email: `${name}@demo.test`,
        companyIds: [demoId],
        permissions,
        grants: {
          entities: grants.entities ?? EMPTY,
          assets: grants.assets ?? EMPTY,
          accounts: grants.accounts ?? EMPTY,
        },
      });
      return token(name);
    },
    s3Endpoint: aws?.address,
    stop: async () => {
      await fx.stop();
      await aws?.stop();
    },
  };
}

/** Creates an item through the API and answers its id, failing loudly if the API refuses. */
export async function created(api: Api, token: string, path: string, body: unknown): Promise<string> {
  const res = await api({ method: 'POST', path, token, body });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return String(res.body._id);
}
