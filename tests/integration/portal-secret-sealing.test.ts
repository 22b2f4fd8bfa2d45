import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  portalSealer,
  portalSecretContext,
  resetPortalSealer,
} from '../../functions/automation/portal-secrets.ts';

/**
 * KMS as far as Encrypt and Decrypt go (its JSON protocol), so the sealer is tested through the real SDK
 * client: a blob opens only under the key and the encryption context it was sealed with.
 */
interface KmsCall {
  target: string;
  body: Record<string, unknown>;
}

function fakeKms(keyId: string) {
  const key = randomBytes(32);
  const calls: KmsCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '').replace('TrentService.', '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      calls.push({ target, body });
      const aad = Buffer.from(JSON.stringify(body.EncryptionContext ?? {}));
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(json));
      };
      if (body.KeyId !== keyId) return answer(400, { __type: 'NotFoundException', message: 'No such key' });
      if (target === 'Encrypt') {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
        const out = Buffer.concat([
          cipher.update(Buffer.from(String(body.Plaintext), 'base64')),
          cipher.final(),
        ]);
        const blob = Buffer.concat([iv, cipher.getAuthTag(), out]);
        return answer(200, { CiphertextBlob: blob.toString('base64'), KeyId: keyId });
      }
      if (target === 'Decrypt') {
        try {
          const raw = Buffer.from(String(body.CiphertextBlob), 'base64');
          const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(aad);
          decipher.setAuthTag(raw.subarray(12, 28));
          const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
          return answer(200, { Plaintext: plain.toString('base64'), KeyId: keyId });
        } catch {
          return answer(400, { __type: 'InvalidCiphertextException', message: 'Invalid ciphertext' });
        }
      }
      return answer(400, { __type: 'UnsupportedOperationException', message: target });
    });
  });
  return { server, calls };
}

const KEY_ARN = 'arn:aws:kms:eu-west-2:111122223333:key/portal-secrets';
const saved = { ...process.env };
let kms: ReturnType<typeof fakeKms>;

beforeAll(async () => {
  kms = fakeKms(KEY_ARN);
  await new Promise<void>((resolve) => kms.server.listen(0, '127.0.0.1', resolve));
  const { port } = kms.server.address() as AddressInfo;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_KMS: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'eu-west-2',
    TABLE_NAME: process.env.TABLE_NAME ?? 'unused',
    AUTH_PROVIDER: process.env.AUTH_PROVIDER ?? 'cognito',
    COGNITO_USER_POOL_ID: process.env.COGNITO_USER_POOL_ID ?? 'unused',
    AUTH_CLIENT_ID: process.env.AUTH_CLIENT_ID ?? 'unused',
  });
});

afterAll(async () => {
  process.env = saved;
  resetPortalSealer();
  await new Promise((resolve) => kms?.server.close(resolve));
});

describe('portal passwords sealed with KMS (in AWS)', () => {
  const context = portalSecretContext('company-a', 'supplier-b');

  it('is the sealer when a KMS key is configured, and round-trips through KMS', async () => {
    process.env.PORTAL_SECRET_KMS_KEY_ID = KEY_ARN;
    process.env.PORTAL_SECRET_KEY_FILE = join(mkdtempSync(join(tmpdir(), 'unused-key-')), 'key');
    resetPortalSealer();
    const sealed = await portalSealer().seal('Hunter-2-Portal!', context);
    expect(sealed.startsWith('kms:v1:')).toBe(true);
    expect(sealed).not.toContain('Hunter-2-Portal!');
    expect(await portalSealer().open(sealed, context)).toBe('Hunter-2-Portal!');
    const encrypt = kms.calls.find((c) => c.target === 'Encrypt');
    expect(encrypt?.body.EncryptionContext).toEqual({ 'voltfolio:secret': context });
    // Configured for KMS, the local key file is never made.
    expect(() => readFileSync(String(process.env.PORTAL_SECRET_KEY_FILE))).toThrow();
  });

  it('does not open a password sealed for another login or under another key', async () => {
    process.env.PORTAL_SECRET_KMS_KEY_ID = KEY_ARN;
    resetPortalSealer();
    const sealed = await portalSealer().seal('Hunter-2-Portal!', context);
    await expect(
      portalSealer().open(sealed, portalSecretContext('company-x', 'supplier-b')),
    ).rejects.toThrow();
    process.env.PORTAL_SECRET_KMS_KEY_ID = `${KEY_ARN}-other`;
    resetPortalSealer();
    await expect(portalSealer().open(sealed, context)).rejects.toThrow();
  });
});

describe('portal passwords sealed with the local key file (the local stack)', () => {
  it('is the sealer without a KMS key, and round-trips with its file', async () => {
    delete process.env.PORTAL_SECRET_KMS_KEY_ID;
    const file = join(mkdtempSync(join(tmpdir(), 'portal-key-')), 'key');
    process.env.PORTAL_SECRET_KEY_FILE = file;
    resetPortalSealer();
    const before = kms.calls.length;
    const context = portalSecretContext('company-a', 'supplier-b');
    const sealed = await portalSealer().seal('Local-Secret-9', context);
    expect(sealed.startsWith('local-aes-gcm:v1:')).toBe(true);
    expect(sealed).not.toContain('Local-Secret-9');
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    expect(await portalSealer().open(sealed, context)).toBe('Local-Secret-9');
    expect(kms.calls.length).toBe(before);
  });

  it('says which setting is missing when neither is configured', () => {
    delete process.env.PORTAL_SECRET_KMS_KEY_ID;
    delete process.env.PORTAL_SECRET_KEY_FILE;
    resetPortalSealer();
    expect(() => portalSealer()).toThrow(/PORTAL_SECRET_KMS_KEY_ID or PORTAL_SECRET_KEY_FILE/);
  });
});
