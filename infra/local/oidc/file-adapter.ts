import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds; absent for entries that do not expire. */
  expiresAt?: number;
}

type Models = Record<string, Record<string, Entry>>;

/**
 * Sessions, grants and refresh tokens are what keeps a browser signed in, so they are written to disk and
 * survive a restart of the local stack. Interactions, authorization codes and the like live for seconds
 * to minutes and stay in memory.
 */
const DURABLE = new Set(['Session', 'Grant', 'RefreshToken']);

export interface FileAdapterStore {
  factory: AdapterFactory;
  /** Resolves once every change made so far is on disk. */
  flush(): Promise<void>;
}

export function createFileAdapter(stateDir: string): FileAdapterStore {
  const dir = join(stateDir, 'oidc');
  const file = join(dir, 'store.json');
  const models: Models = {};
  const now = () => Date.now();
  const live = (entry: Entry | undefined) =>
    entry && (entry.expiresAt === undefined || entry.expiresAt > now()) ? entry : undefined;

  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Models;
    for (const [model, entries] of Object.entries(stored)) {
      models[model] = Object.fromEntries(Object.entries(entries).filter(([, entry]) => live(entry)));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
  }

  let writing: Promise<void> = Promise.resolve();
  let dirty = false;

  /** Coalesces bursts of changes into one write; each write replaces the file atomically. */
  function persist(): void {
    if (dirty) return;
    dirty = true;
    writing = writing.then(async () => {
      dirty = false;
      const durable: Models = {};
      for (const model of DURABLE) {
        const entries = models[model] ?? {};
        durable[model] = Object.fromEntries(Object.entries(entries).filter(([, entry]) => live(entry)));
      }
      await mkdir(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(durable), { mode: 0o600 });
      await rename(tmp, file);
    });
    writing = writing.catch((err: unknown) => {
      console.error('Could not save the sign-in sessions:', err);
    });
  }

  function adapterFor(model: string): Adapter {
    const entries = models[model] ?? {};
    models[model] = entries;
    const changed = () => {
      if (DURABLE.has(model)) persist();
    };
    const find = (id: string) => live(entries[id])?.payload;
    const findBy = (key: 'uid' | 'userCode', value: string) =>
      Object.values(entries).find((entry) => live(entry) && entry.payload[key] === value)?.payload;

    return {
      async upsert(id, payload, expiresIn) {
        if (Object.keys(entries).length > 500) {
          for (const [key, entry] of Object.entries(entries)) if (!live(entry)) delete entries[key];
        }
        entries[id] = { payload, ...(expiresIn ? { expiresAt: now() + expiresIn * 1000 } : {}) };
        changed();
      },
      async find(id) {
        return find(id);
      },
      async findByUid(uid) {
        return findBy('uid', uid);
      },
      async findByUserCode(userCode) {
        return findBy('userCode', userCode);
      },
      async consume(id) {
        const entry = live(entries[id]);
        if (entry) {
          entry.payload.consumed = Math.floor(now() / 1000);
          changed();
        }
      },
      async destroy(id) {
        delete entries[id];
        changed();
      },
      async revokeByGrantId(grantId) {
        for (const [key, entry] of Object.entries(entries)) {
          if (entry.payload.grantId === grantId) delete entries[key];
        }
        changed();
      },
    };
  }

  return {
    factory: adapterFor,
    async flush() {
      await writing;
    },
  };
}
