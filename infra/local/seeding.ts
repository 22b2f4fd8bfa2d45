import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SeedOutcome {
  /** seeded: just now; existing: an earlier start did it; skipped: no seed module yet. */
  state: 'seeded' | 'existing' | 'skipped';
  summary?: unknown;
  seededAt?: string;
  note?: string;
}

export const SEED_MARKER = 'seeded.json';

const SEED_MODULE = ['infra', 'local', 'seed', 'seed.ts'];

type SeedFn = (opts: { stateDir: string; origin: string }) => Promise<unknown>;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The demo data, once per state directory: the marker `seeded.json` records that it ran (and what it
 * created), so a restart keeps whatever was changed since. The seed writes through the same repositories
 * as the API, so the environment must point at the emulators first.
 */
export async function seedOnce(repoRoot: string, stateDir: string, origin: string): Promise<SeedOutcome> {
  const marker = join(stateDir, SEED_MARKER);
  if (await exists(marker)) {
    const saved = JSON.parse(await readFile(marker, 'utf8')) as { seededAt?: string; summary?: unknown };
    return { state: 'existing', summary: saved.summary, seededAt: saved.seededAt };
  }
  const entry = join(repoRoot, ...SEED_MODULE);
  if (!(await exists(entry)))
    return { state: 'skipped', note: 'infra/local/seed/seed.ts does not exist yet' };
  const mod = (await import(pathToFileURL(entry).href)) as { seedDemoData?: unknown };
  if (typeof mod.seedDemoData !== 'function')
    throw new Error('infra/local/seed/seed.ts exports no seedDemoData');
  const summary = await (mod.seedDemoData as SeedFn)({ stateDir, origin });
  const seededAt = new Date().toISOString();
  await writeFile(marker, `${JSON.stringify({ seededAt, summary }, null, 2)}\n`);
  return { state: 'seeded', summary, seededAt };
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

export interface DemoLogin {
  email: string;
  /** The role or description the summary gives beside the e-mail, if any. */
  role?: string;
}

/** The sign-in e-mails a seed summary names, in order, whatever its exact shape. */
export function loginsOf(summary: unknown): DemoLogin[] {
  const found: DemoLogin[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 5 || value === null || typeof value !== 'object') {
      if (typeof value === 'string' && EMAIL.test(value) && !found.some((l) => l.email === value)) {
        found.push({ email: value });
      }
      return;
    }
    const email = (value as { email?: unknown }).email;
    const role = (value as { role?: unknown }).role;
    if (typeof email === 'string' && EMAIL.test(email) && !found.some((l) => l.email === email)) {
      found.push({ email, ...(typeof role === 'string' ? { role } : {}) });
      return;
    }
    for (const v of Object.values(value)) walk(v, depth + 1);
  };
  walk(summary, 0);
  return found;
}

/** The shared demo password: from the summary when it names one, else from the seed's user plans. */
export async function demoPassword(repoRoot: string, summary: unknown): Promise<string | undefined> {
  const given = (summary as { password?: unknown } | null | undefined)?.password;
  if (typeof given === 'string') return given;
  for (const file of ['seed.ts', 'demo-users.ts']) {
    const entry = join(repoRoot, 'infra', 'local', 'seed', file);
    if (!(await exists(entry))) continue;
    const mod = (await import(pathToFileURL(entry).href)) as { DEMO_PASSWORD?: unknown };
    if (typeof mod.DEMO_PASSWORD === 'string') return mod.DEMO_PASSWORD;
  }
  return undefined;
}

export interface BannerDevices {
  kiosk: { id: string; secret: string };
  machine: { id: string; key: string };
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The demo kiosk and machine a seed summary names, if it names both (older seeds made neither). */
export function demoDevicesOf(summary: unknown): BannerDevices | undefined {
  const devices = (summary as { devices?: { kiosk?: unknown; machine?: unknown } } | null | undefined)
    ?.devices;
  const kiosk = devices?.kiosk as { id?: unknown; secret?: unknown } | undefined;
  const machine = devices?.machine as { id?: unknown; key?: unknown } | undefined;
  if (!text(kiosk?.id) || !text(kiosk.secret) || !text(machine?.id) || !text(machine.key)) return undefined;
  return { kiosk: { id: kiosk.id, secret: kiosk.secret }, machine: { id: machine.id, key: machine.key } };
}
