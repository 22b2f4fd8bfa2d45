import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SQSEvent } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { type PublicDataFakes, startPublicDataFakes } from '../../infra/local/fakes/public-data-server.ts';
import { objectCreatedEvent } from '../../infra/local/s3-notification.ts';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

export const DOCUMENTS_BUCKET = 'voltfolio-documents';

export interface RegisterFixture {
  fx: ApiFixture;
  fakes: PublicDataFakes;
  s3: S3Client;
  api: (req: TestRequest) => Promise<TestResponse>;
  demoId: string;
  otherId: string;
  tokens: { owner: string; outsider: string; siteUser: string; reader: string };
  entityId: string;
  otherEntityId: string;
  /** Two sites of the demo company (the site user may change the first) and one of the other company. */
  assets: { mine: string; second: string; foreign: string };
  stop(): Promise<void>;
}

export const wizardBody = (entityId: string, overrides: Record<string, unknown> = {}) => ({
  siteName: 'Aldgate House',
  entityId,
  assetType: 'Office',
  address: { streetAddress: '33 Aldgate High Street', locality: 'London', postCode: 'ec3n1dl' },
  floorArea: 6240,
  floorAreaUnit: 'm2',
  ...overrides,
});

/**
 * The assets function against a real table, the S3 emulator and the local public-data servers, with two
 * companies: Demo Estates (owner, a user granted one site, a read-only user) and Northwind (outsider).
 */
export async function startRegisterFixture(): Promise<RegisterFixture> {
  const fx = await startApiFixture();
  const fauxqs = await startFauxqs({ port: 0, logger: false });
  const fakes = await startPublicDataFakes();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: fauxqs.address,
    S3_FORCE_PATH_STYLE: 'true',
    BUCKET_DOCUMENTS: DOCUMENTS_BUCKET,
    BUCKET_UPLOADS: 'voltfolio-uploads',
    LIVE_ENDPOINT: 'http://127.0.0.1:9',
    ...fakes.env,
  });
  const s3 = new S3Client({
    region: 'eu-west-2',
    endpoint: fauxqs.address,
    forcePathStyle: true,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: DOCUMENTS_BUCKET }));
  const api = await loadApi();
  const demoId = await createCompany('Demo Estates Ltd', {
    documentCategories: ['Energy Performance Certificate', 'Lease', 'Floor plan'],
  });
  const otherId = await createCompany('Northwind Property Co');
  await createUser({
    sub: 'owner',
    email: 'owner@demo.test',
    companyIds: [demoId],
    permissions: ['company_owner', 'company_admin'],
  });
  await createUser({
    sub: 'outsider',
    email: 'owner@northwind.test',
    companyIds: [otherId],
    permissions: ['company_owner', 'company_admin'],
  });
  const owner = fx.issuer.accessToken('owner');
  const outsider = fx.issuer.accessToken('outsider');
  const entity = async (token: string, legalName: string) =>
    String((await api({ method: 'POST', path: '/entities', token, body: { legalName } })).body._id);
  const entityId = await entity(owner, 'Demo Estates Offices Ltd');
  const otherEntityId = await entity(outsider, 'Northwind Holdings Ltd');
  const site = async (token: string, body: Record<string, unknown>) => {
    const res = await api({ method: 'POST', path: '/assets/wizard-submit', token, body });
    if (res.status !== 201) throw new Error(`Could not create a site: ${JSON.stringify(res.body)}`);
    return String(res.body._id);
  };
  const mine = await site(owner, wizardBody(entityId));
  const second = await site(
    owner,
    wizardBody(entityId, {
      siteName: 'Temple Quay Point',
      assetType: 'Retail',
      address: { streetAddress: '4 Temple Back East', locality: 'Bristol', postCode: 'BS1 6EY' },
      floorArea: 20000,
      floorAreaUnit: 'ft2',
    }),
  );
  const foreign = await site(outsider, wizardBody(otherEntityId, { siteName: 'Kings Road Yard' }));
  const grants = (read: string[], write: string[]) => ({
    entities: { read: [], write: [] },
    assets: { read, write },
    accounts: { read: [], write: [] },
  });
  await createUser({
    sub: 'site-user',
    email: 'asset@demo.test',
    companyIds: [demoId],
    grants: grants([], [mine]),
  });
  await createUser({
    sub: 'reader',
    email: 'reader@demo.test',
    companyIds: [demoId],
    grants: grants([mine], []),
  });
  return {
    fx,
    fakes,
    s3,
    api,
    demoId,
    otherId,
    tokens: {
      owner,
      outsider,
      siteUser: fx.issuer.accessToken('site-user'),
      reader: fx.issuer.accessToken('reader'),
    },
    entityId,
    otherEntityId,
    assets: { mine, second, foreign },
    stop: async () => {
      s3.destroy();
      await fakes.stop();
      await fauxqs.stop();
      await fx.stop();
    },
  };
}

/** A picture of `width` × `height`: a left-to-right red gradient over a dull grey, as PNG or JPEG. */
export function testPicture(type: 'png' | 'jpeg', width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = 90 + Math.round((x / width) * 80);
      data[i + 1] = 100;
      data[i + 2] = 110;
      data[i + 3] = 255;
    }
  }
  if (type === 'jpeg') return jpeg.encode({ width, height, data }, 90).data;
  const png = new PNG({ width, height });
  data.copy(png.data);
  return PNG.sync.write(png);
}

/** Stores an object as a browser's PUT to a signed URL would. */
export async function putObject(s3: S3Client, key: string, body: Uint8Array | string, contentType: string) {
  await s3.send(
    new PutObjectCommand({ Bucket: DOCUMENTS_BUCKET, Key: key, Body: body, ContentType: contentType }),
  );
}

let sequence = 0;
/** The SQS message S3 sends for a stored object, as the subscription on `assets/` delivers it. */
export function s3Event(key: string, size = 1): SQSEvent {
  const event = objectCreatedEvent({
    bucket: DOCUMENTS_BUCKET,
    key,
    size,
    eTag: 'e',
    configurationId: 'documents-assets-to-asset-images',
    sequencer: String(++sequence),
    time: new Date(),
  });
  return {
    Records: [
      {
        messageId: `m-${sequence}`,
        receiptHandle: 'r',
        body: JSON.stringify(event),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: '0',
          SenderId: 's3',
          ApproximateFirstReceiveTimestamp: '0',
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:eu-west-2:000000000000:asset-images',
        awsRegion: 'eu-west-2',
      },
    ],
  };
}

/** A JPEG with an EXIF block whose Orientation tag says how the camera was held (6: turned right). */
export function withOrientation(jpegBytes: Buffer, orientation: number): Buffer {
  const tiff = Buffer.from([
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // big-endian TIFF header, first IFD at 8
    0x00,
    0x01, // one entry
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    orientation,
    0x00,
    0x00, // Orientation, SHORT
    0x00,
    0x00,
    0x00,
    0x00, // no next IFD
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.concat([
    Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]),
    body,
  ]);
  return Buffer.concat([jpegBytes.subarray(0, 2), app1, jpegBytes.subarray(2)]);
}
