import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A sign-in account as the provider keeps it: the local counterpart of a Cognito user. */
export interface StoredAccount {
  sub: string;
  email: string;
  name: string;
  passwordHash: string;
  totpSecret?: string;
  roles?: string[];
}

/** An account as callers see it: everything but the password hash. */
export type Account = Omit<StoredAccount, 'passwordHash'>;

export interface AccountInput {
  email: string;
  name: string;
  password: string;
  sub?: string;
  roles?: string[];
}

export interface AccountStore {
  /** Creates or replaces the account with this e-mail; an existing account keeps its sub and second factor. */
  upsert(input: AccountInput): Promise<Account>;
  findByEmail(email: string): Promise<Account | undefined>;
  findBySub(sub: string): Promise<Account | undefined>;
  /** The account when the password is right, otherwise undefined. */
  verifyPassword(email: string, password: string): Promise<Account | undefined>;
  /** Enrols (secret) or removes (undefined) the authenticator-app second factor. */
  setTotpSecret(sub: string, secret: string | undefined): Promise<Account>;
}

const KEY_LENGTH = 64;
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, SCRYPT, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

async function passwordMatches(password: string, passwordHash: string): Promise<boolean> {
  const [scheme, salt, expected] = passwordHash.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const want = Buffer.from(expected, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'));
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Spent on unknown e-mails so that a wrong address takes as long as a wrong password. */
const decoyHash = hashPassword(randomUUID());

const normalizeEmail = (email: string): string => email.trim().toLowerCase();

function publicView({ passwordHash: _hash, ...account }: StoredAccount): Account {
  return account;
}

/**
 * Opens the account file `<stateDir>/oidc/accounts.json`. The file is read again whenever it changed on
 * disk, so accounts seeded by another process are seen without a restart; writes replace it atomically.
 */
export function openAccountStore(stateDir: string): AccountStore {
  const dir = join(stateDir, 'oidc');
  const file = join(dir, 'accounts.json');
  let cache: { stamp: string; accounts: StoredAccount[] } | undefined;
  let writing: Promise<unknown> = Promise.resolve();

  async function load(): Promise<StoredAccount[]> {
    let stamp: string;
    try {
      const s = await stat(file);
      stamp = `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    if (cache?.stamp === stamp) return cache.accounts;
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${file} does not hold a list of accounts`);
    cache = { stamp, accounts: parsed as StoredAccount[] };
    return cache.accounts;
  }

  async function save(accounts: StoredAccount[]): Promise<void> {
    await mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(tmp, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, file);
    cache = undefined;
  }

  /** Read-modify-write steps run one after another so concurrent updates do not lose each other. */
  function update<T>(
    change: (accounts: StoredAccount[]) => Promise<{ accounts: StoredAccount[]; result: T }>,
  ) {
    const next = writing.then(async () => {
      const { accounts, result } = await change([...(await load())]);
      await save(accounts);
      return result;
    });
    writing = next.catch(() => undefined);
    return next;
  }

  const bySub = async (sub: string) => (await load()).find((a) => a.sub === sub);
  const byEmail = async (email: string) => {
    const wanted = normalizeEmail(email);
    return (await load()).find((a) => a.email === wanted);
  };

  return {
    upsert: (input) =>
      update(async (accounts) => {
        const email = normalizeEmail(input.email);
        const existing = accounts.find((a) => a.email === email);
        const sub = input.sub ?? existing?.sub ?? randomUUID();
        if (accounts.some((a) => a.sub === sub && a.email !== email)) {
          throw new Error(`Another account already has the subject ${sub}`);
        }
        const account: StoredAccount = {
          sub,
          email,
          name: input.name,
          passwordHash: await hashPassword(input.password),
          ...(existing?.totpSecret ? { totpSecret: existing.totpSecret } : {}),
          ...(input.roles ? { roles: [...input.roles] } : {}),
        };
        const others = accounts.filter((a) => a.email !== email);
        return { accounts: [...others, account], result: publicView(account) };
      }),

    async findByEmail(email) {
      const account = await byEmail(email);
      return account && publicView(account);
    },

    async findBySub(sub) {
      const account = await bySub(sub);
      return account && publicView(account);
    },

    async verifyPassword(email, password) {
      const account = await byEmail(email);
      if (!account) {
        await passwordMatches(password, await decoyHash);
        return undefined;
      }
      return (await passwordMatches(password, account.passwordHash)) ? publicView(account) : undefined;
    },

    setTotpSecret: (sub, secret) =>
      update(async (accounts) => {
        const index = accounts.findIndex((a) => a.sub === sub);
        const current = accounts[index];
        if (!current) throw new Error(`No account with the subject ${sub}`);
        const { totpSecret: _old, ...rest } = current;
        const account: StoredAccount = secret ? { ...rest, totpSecret: secret } : rest;
        accounts[index] = account;
        return { accounts, result: publicView(account) };
      }),
  };
}
