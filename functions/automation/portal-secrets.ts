import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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

let sealer: SecretSealer | undefined;

/**
 * The sealer of this environment: the local key file when PORTAL_SECRET_KEY_FILE is set (the local stack,
 * tests). In AWS the same interface is served by a KMS key (PORTAL_SECRET_KMS_KEY_ID), with the context
 * as its encryption context.
 */
export function portalSealer(): SecretSealer {
  if (sealer) return sealer;
  const file = process.env.PORTAL_SECRET_KEY_FILE;
  if (file) {
    sealer = fileKeySealer(file);
    return sealer;
  }
  throw new Error(
    'Missing required environment variable PORTAL_SECRET_KEY_FILE (or a KMS key for portal secrets)',
  );
}

export const portalSecretContext = (companyId: string, supplierId: string) =>
  `voltfolio:supplier-portal:${companyId}:${supplierId}`;
