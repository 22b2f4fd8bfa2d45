import { config } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * The KMS SDK and the process's one client, loaded with the first seal or open: only the functions that
 * store or use a sealed secret ever reach it, and no other request should pay for it at a cold start.
 */
const kms = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-kms');
  return { lib, client: new lib.KMSClient({ region: config().region }) };
});

/** Encrypts up to 4 KB under the key; `context` is bound in, so the blob opens only with the same one. */
export async function kmsEncrypt(
  keyId: string,
  plaintext: Uint8Array,
  context: Record<string, string>,
): Promise<Uint8Array> {
  const { lib, client } = await kms();
  const out = await client.send(
    new lib.EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: context }),
  );
  if (!out.CiphertextBlob) throw new Error('KMS returned no ciphertext');
  return out.CiphertextBlob;
}

/** Decrypts a blob kmsEncrypt made; naming the key refuses a blob sealed under any other. */
export async function kmsDecrypt(
  keyId: string,
  ciphertext: Uint8Array,
  context: Record<string, string>,
): Promise<Uint8Array> {
  const { lib, client } = await kms();
  const out = await client.send(
    new lib.DecryptCommand({ KeyId: keyId, CiphertextBlob: ciphertext, EncryptionContext: context }),
  );
  if (!out.Plaintext) throw new Error('KMS returned no plaintext');
  return out.Plaintext;
}
