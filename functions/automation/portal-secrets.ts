import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { kmsDecrypt, kmsEncrypt } from '../core/adapters/kms.ts';

/**
 * Supplier-portal passwords are sealed before they are stored and opened only by the worker that signs in.
 * The sealed text names how it was sealed, so a key change or a move to KMS can still open older ones.
 * `context` (company and supplier) is bound into the seal: a sealed password copied to another login
 * does not open.
 */
export interface SecretSealer {
  seal(plain: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

const LOCAL_PREFIX = 'local-aes-gcm:v1:';

/** AES-256-GCM with a 32-byte key kept in a file, made on first use (the local stack's state directory). */
export function fileKeySealer(keyFile: string): SecretSealer {
  let key: Buffer | undefined;
  const keyOf = (): Buffer => {
    if (key) return key;
    try {
      key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    } catch {
      mkdirSync(dirname(keyFile), { recursive: true });
      const fresh = randomBytes(32);
      // wx: two processes starting together keep the first key rather than each writing its own.
      try {
        writeFileSync(keyFile, fresh.toString('base64'), { mode: 0o600, flag: 'wx' });
        key = fresh;
      } catch {
        key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
      }
    }
    if (key.length !== 32) throw new Error('The portal secret key file does not hold a 32-byte key');
    return key;
  };
  return {
    seal: async (plain, context) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${LOCAL_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open: async (sealed, context) => {
      if (!sealed.startsWith(LOCAL_PREFIX)) throw new Error('This secret was not sealed with the local key');
      const raw = Buffer.from(sealed.slice(LOCAL_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(), raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const KMS_PREFIX = 'kms:v1:';

/** What a KMS sealer needs of KMS: the adapter in AWS, a stand-in in tests. */
export interface KmsCipher {
  encrypt(keyId: string, plaintext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
  decrypt(keyId: string, ciphertext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
}

const SDK_CIPHER: KmsCipher = { encrypt: kmsEncrypt, decrypt: kmsDecrypt };

/**
 * KMS Encrypt/Decrypt under one key: a password is far below KMS's 4 KB limit, so no data key is needed,
 * and the plain key never leaves KMS. The context goes in as the encryption context, which CloudTrail
 * records with every Decrypt, so each opening names the company and supplier it was for.
 */
export function kmsSealer(keyId: string, cipher: KmsCipher = SDK_CIPHER): SecretSealer {
  const contextOf = (context: string) => ({ 'voltfolio:secret': context });
  return {
    seal: async (plain, context) => {
      const blob = await cipher.encrypt(keyId, Buffer.from(plain, 'utf8'), contextOf(context));
      return `${KMS_PREFIX}${Buffer.from(blob).toString('base64')}`;
    },
    open: async (sealed, context) => {
      if (!sealed.startsWith(KMS_PREFIX)) throw new Error('This secret was not sealed with KMS');
      const blob = Buffer.from(sealed.slice(KMS_PREFIX.length), 'base64');
      return Buffer.from(await cipher.decrypt(keyId, blob, contextOf(context))).toString('utf8');
    },
  };
}

let sealer: SecretSealer | undefined;

/**
 * The sealer of this environment, chosen by its configuration: a KMS key when PORTAL_SECRET_KMS_KEY_ID is
 * set (the CDK sets it for the functions granted portal secrets), else the local key file
 * PORTAL_SECRET_KEY_FILE (the local stack, tests).
 */
export function portalSealer(): SecretSealer {
  if (sealer) return sealer;
  const keyId = process.env.PORTAL_SECRET_KMS_KEY_ID;
  const file = process.env.PORTAL_SECRET_KEY_FILE;
  if (keyId) sealer = kmsSealer(keyId);
  else if (file) sealer = fileKeySealer(file);
  else {
    throw new Error(
      'Missing required environment variable PORTAL_SECRET_KMS_KEY_ID or PORTAL_SECRET_KEY_FILE for portal secrets',
    );
  }
  return sealer;
}

/** Forgets the chosen sealer, for tests that change the configuration. */
export function resetPortalSealer(): void {
  sealer = undefined;
}

export const portalSecretContext = (companyId: string, supplierId: string) =>
  `voltfolio:supplier-portal:${companyId}:${supplierId}`;
