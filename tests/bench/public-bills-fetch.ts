import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Public documents whose repositories state no licence are not kept in tests/fixtures/public-bills:
 * fetched.json names each by repository, commit and path, and this copies it out of a local mirror
 * of that repository when the bench runs. Without the mirror the document is skipped, so the bench
 * still runs everywhere and says how many it could not read.
 */
interface Fetched {
  part: string;
  file: string;
  repo: string;
  commit: string;
  path: string;
}

const DIR = join(import.meta.dirname, '../fixtures/public-bills');
const CACHE = join(import.meta.dirname, '../../.bench/public-bills');
/** A directory of bare clones, one per repository as `<owner>+<name>/repo`; unset, nothing is fetched. */
const MIRROR = process.env.PUBLIC_BILLS_MIRROR;

const manifest = (JSON.parse(readFileSync(join(DIR, 'fetched.json'), 'utf8')) as { files: Fetched[] }).files;

function fetchOne(entry: Fetched, target: string): boolean {
  if (!MIRROR) return false;
  const gitDir = join(MIRROR, entry.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) return false;
  try {
    const bytes = execFileSync('git', ['--git-dir', gitDir, 'show', `${entry.commit}:${entry.path}`], {
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
    return true;
  } catch {
    return false;
  }
}

/** Where a document of a part is: kept in the repository, or fetched; undefined when neither. */
export function publicBillPath(part: string, file: string): string | undefined {
  const kept = join(DIR, part, file);
  if (existsSync(kept)) return kept;
  const entry = manifest.find((e) => e.part === part && e.file === file);
  if (!entry) return undefined;
  const cached = join(CACHE, part, file);
  if (existsSync(cached) || fetchOne(entry, cached)) return cached;
  return undefined;
}
