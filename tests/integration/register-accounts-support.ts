import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import { putItem, type StoredItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { Caller } from '../../shared/access/caller.ts';
import type { PermissionName } from '../../shared/access/permission-names.ts';
import { findResource } from '../../shared/system/resources.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import {
  httpEvent,
  lambdaContext,
  parseResult,
  type TestRequest,
  type TestResponse,
} from '../support/http-events.ts';

export type Api = (req: TestRequest) => Promise<TestResponse>;

/** Valid MPANs (13-digit cores with their check digit) and MPRNs for the tests. */
export const MPANS = ['1312345678907', '2099999999993', '1200000000011'] as const;
export const BAD_MPAN = '1312345678900';

export interface AccountsWorld {
  fx: ApiFixture;
  api: Api;
  s3?: S3Client;
  companyId: string;
  otherCompanyId: string;
  entityId: string;
  assetA: string;
  assetB: string;
  otherAsset: string;
  supplierId: string;
  token(who: 'owner' | 'outsider' | 'assetUser' | 'admin'): string;
  stop(): Promise<void>;
}

export const DOCUMENTS_BUCKET = 'voltfolio-documents';

/** Writes an item as the generic layer would, for data the test needs but does not exercise. */
export async function seed(name: string, companyId: string | undefined, data: Record<string, unknown>) {
  const decl = findResource(name);
  if (!decl) throw new Error(`no resource ${name}`);
  const now = new Date().toISOString();
  const item: StoredItem = {
    _id: newId(),
    ...(companyId ? { companyId } : {}),
    createdAt: now,
    updatedAt: now,
    ...data,
  };
  await putItem(
    {
      pk: keys.collection(companyId ? { companyId } : {}, name),
      indexes: decl.indexes ?? [],
      searchFields: decl.searchFields,
    },
    item,
  );
  return item._id;
}

/**
 * A table, a token issuer, optionally an S3 emulator with the documents bucket, two companies with an
 * entity and assets each, a supplier, and the accounts function called as the API gateway would call it.
 */
export async function startAccountsWorld(opts: { s3?: boolean } = {}): Promise<AccountsWorld> {
  const fx = await startApiFixture();
  let fauxqs: Awaited<ReturnType<typeof startFauxqs>> | undefined;
  let s3: S3Client | undefined;
  process.env.BUCKET_DOCUMENTS = DOCUMENTS_BUCKET;
  process.env.BUCKET_UPLOADS = 'voltfolio-uploads';
  if (opts.s3) {
    fauxqs = await startFauxqs({ port: 0, logger: false });
    Object.assign(process.env, { AWS_ENDPOINT_URL_S3: fauxqs.address, S3_FORCE_PATH_STYLE: 'true' });
    s3 = new S3Client({
      region: 'eu-west-2',
      endpoint: fauxqs.address,
      forcePathStyle: true,
      credentials: { accessKeyId: 't', secretAccessKey: 't' },
    });
    await s3.send(new CreateBucketCommand({ Bucket: DOCUMENTS_BUCKET }));
  }
  const companyId = await createCompany('Demo Estates Ltd', { isDemo: true });
  const otherCompanyId = await createCompany('Northwind Property Co');
  const entityId = await seed('entities', companyId, { legalName: 'Demo Estates Offices Ltd' });
  const assetA = await seed('assets', companyId, { siteName: 'Temple Quay Point', entityId, images: [] });
  const assetB = await seed('assets', companyId, { siteName: 'Harbour Yard', entityId, images: [] });
  const otherEntity = await seed('entities', otherCompanyId, { legalName: 'Northwind Offices' });
  const otherAsset = await seed('assets', otherCompanyId, {
    siteName: 'Northwind House',
    entityId: otherEntity,
    images: [],
  });
  const supplierId = await seed('suppliers', undefined, {
    name: 'EDF Energy',
    type: 'supplier',
    utilityTypes: ['electricity', 'gas'],
  });
  const users: { sub: string; email: string; companyIds: string[]; permissions?: PermissionName[] }[] = [
    {
      sub: 'owner',
      email: 'owner@demo.test',
      companyIds: [companyId],
      permissions: ['company_owner', 'company_admin'],
    },
    {
      sub: 'outsider',
      email: 'owner@northwind.test',
      companyIds: [otherCompanyId],
      permissions: ['company_owner', 'company_admin'],
    },
  ];
  for (const u of users) await createUser(u);
  const grants: Caller['grants'] = {
    entities: { read: [], write: [] },
    assets: { read: [assetA], write: [assetA] },
    accounts: { read: [], write: [] },
  };
  await createUser({ sub: 'assetUser', email: 'asset@demo.test', companyIds: [companyId], grants });
  await createUser({ sub: 'admin', email: 'admin@voltfolio.test', companyIds: [companyId], isAdmin: true });

  const entry = path.resolve(import.meta.dirname, '../../functions/handlers/http/accounts.ts');
  const { handler } = (await import(entry)) as {
    handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
  };
  const api: Api = async (req) => {
    const result = await handler(httpEvent(req), lambdaContext('accounts'));
    return parseResult(typeof result === 'string' ? { statusCode: 200, body: result } : result);
  };
  return {
    fx,
    api,
    s3,
    companyId,
    otherCompanyId,
    entityId,
    assetA,
    assetB,
    otherAsset,
    supplierId,
    token: (who) => fx.issuer.accessToken(who),
    stop: async () => {
      s3?.destroy();
      await fauxqs?.stop();
      await fx.stop();
    },
  };
}

/** A minimal, valid one-page PDF, written by hand: header, catalog, pages, page, cross-reference table. */
export function minimalPdf(text = 'Supply contract'): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>`,
  ];
  const stream = `BT /F1 12 Tf 20 50 Td (${text}) Tj ET`;
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** The first bytes of a PNG: enough for the server to tell it is not a PDF. */
export const PNG_BYTES = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);
export const JPEG_BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1]);

/** PUTs bytes to a presigned URL as a browser would. */
export async function putTo(url: string, bytes: Uint8Array, contentType: string): Promise<number> {
  const res = await fetch(url, {
    method: 'PUT',
    body: new Blob([bytes as BlobPart]),
    headers: { 'Content-Type': contentType },
  });
  return res.status;
}
