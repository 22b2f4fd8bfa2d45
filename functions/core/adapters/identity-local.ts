import { randomBytes, randomUUID, scrypt } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecret, verify } from 'otplib';
import type { Identity, IdentityProvider } from './identity.ts';

/** One account in the local provider's `accounts.json`: the same record its own account store keeps. */
interface StoredAccount {
  sub: string;
  email: string;
  name: string;
  passwordHash: string;
  totpSecret?: string;
  roles?: string[];
}

/** An account as this file keeps it: the fields every sign-in reads are text. */
function isStoredAccount(v: unknown): v is StoredAccount {
  if (typeof v !== 'object' || v === null) return false;
  const fields = new Map(Object.entries(v));
  return ['sub', 'email', 'name', 'passwordHash'].every((k) => typeof fields.get(k) === 'string');
}

// The provider's password hash: scrypt, N=16384 r=8 p=1, 64-byte key, `scrypt$<salt>$<key>` in base64url.
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const TOTP_TOLERANCE_SECONDS = 30;

function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, SCRYPT, (err, key) =>
      err ? reject(err) : resolve(`scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`),
    );
  });
}

/** Whether `code` is what an authenticator app with `secret` shows now (one step either side). */
async function codeMatches(secret: string | undefined, code: string): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!secret || !/^\d{6}$/.test(token)) return false;
  try {
    return (await verify({ secret, token, epochTolerance: TOTP_TOLERANCE_SECONDS })).valid;
  } catch {
    return false;
  }
}

const identityOf = (a: StoredAccount): Identity => ({ sub: a.sub, email: a.email, name: a.name });
const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * The local OpenID provider's account file, read fresh on every call (the provider and the seed write it
 * too) and replaced atomically. Changes in this process run one after another.
 */
export function localIdentity(dir: string): IdentityProvider {
  const file = join(dir, 'accounts.json');
  let queue: Promise<unknown> = Promise.resolve();

  async function load(): Promise<StoredAccount[]> {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (!Array.isArray(parsed) || !parsed.every(isStoredAccount))
        throw new Error(`${file} does not hold a list of accounts`);
      return parsed;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  function change<T>(fn: (accounts: StoredAccount[]) => Promise<T>): Promise<T> {
    const next = queue.then(async () => {
      const accounts = await load();
      const result = await fn(accounts);
      await mkdir(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(tmp, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, file);
      return result;
    });
    queue = next.catch(() => undefined);
    return next;
  }

  const bySub = async (sub: string) => (await load()).find((a) => a.sub === sub);

  return {
    kind: 'local',
    async findByEmail(email) {
      const found = (await load()).find((a) => a.email === normalizeEmail(email));
      return found && identityOf(found);
    },
    async findBySub(sub) {
      const found = await bySub(sub);
      return found && identityOf(found);
    },
    createUser: ({ email, name }) =>
      change(async (accounts) => {
        const existing = accounts.find((a) => a.email === normalizeEmail(email));
        if (existing) return { identity: identityOf(existing), created: false };
        // Nobody knows this password: the welcome e-mail sets one they can use.
        const account: StoredAccount = {
          sub: randomUUID(),
          email: normalizeEmail(email),
          name,
          passwordHash: await hashPassword(randomUUID()),
        };
        accounts.push(account);
        return { identity: identityOf(account), created: true };
      }),
    setTemporaryPassword: (identity, password) =>
      change(async (accounts) => {
        const account = accounts.find((a) => a.sub === identity.sub);
        if (!account) throw new Error('No such account');
        account.passwordHash = await hashPassword(password);
      }),
    async totpEnabled(identity) {
      return Boolean((await bySub(identity.sub))?.totpSecret);
    },
    async startTotp() {
      return { secret: generateSecret(), keptByProvider: false };
    },
    async confirmTotp(identity, code, pendingSecret) {
      if (!(await codeMatches(pendingSecret, code))) return false;
      await change(async (accounts) => {
        const account = accounts.find((a) => a.sub === identity.sub);
        if (!account) throw new Error('No such account');
        account.totpSecret = pendingSecret;
      });
      return true;
    },
    disableTotp: (identity, code) =>
      change(async (accounts) => {
        const account = accounts.find((a) => a.sub === identity.sub);
        if (!account?.totpSecret) return true;
        if (!(await codeMatches(account.totpSecret, code))) return false;
        delete account.totpSecret;
        return true;
      }),
  };
}
