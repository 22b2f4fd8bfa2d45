import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOidc } from '../../infra/local/oidc-loader.ts';
import { loginsOf, SEED_MARKER, seedOnce } from '../../infra/local/seeding.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'voltfolio-modules-'));
  await mkdir(join(root, 'infra', 'local', 'oidc'), { recursive: true });
  await mkdir(join(root, 'infra', 'local', 'seed'), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the OpenID provider module', () => {
  it('reports why it could not load instead of stopping the stack', async () => {
    await writeFile(join(root, 'infra/local/oidc/provider.ts'), "throw new Error('keys unreadable');\n");
    expect(await loadOidc(root, 'http://localhost:1', root)).toEqual({ error: 'keys unreadable' });
  });

  it('is refused when it does not offer createOidc', async () => {
    await writeFile(join(root, 'infra/local/oidc/provider.ts'), 'export const other = 1;\n');
    expect(await loadOidc(root, 'http://localhost:1', root)).toEqual({
      error: 'infra/local/oidc/provider.ts exports no createOidc',
    });
  });
});

describe('seeding', () => {
  it('runs the seed once per state directory and remembers its summary', async () => {
    const state = join(root, 'state');
    await mkdir(state);
    await writeFile(
      join(root, 'infra/local/seed/seed.ts'),
      `let runs = 0;
export async function seedDemoData(opts) {
  runs++;
  return { runs, origin: opts.origin, users: [{ email: 'a@demo.test', role: 'Owner' }, { email: 'b@demo.test' }] };
}
`,
    );
    const first = await seedOnce(root, state, 'http://localhost:9');
    expect(first.state).toBe('seeded');
    expect(first.summary).toMatchObject({ runs: 1, origin: 'http://localhost:9' });
    const marker = JSON.parse(await readFile(join(state, SEED_MARKER), 'utf8')) as { summary: unknown };
    expect(marker.summary).toEqual(first.summary);

    const second = await seedOnce(root, state, 'http://localhost:9');
    expect(second.state).toBe('existing');
    expect(second.summary).toEqual(first.summary);
    expect(loginsOf(second.summary)).toEqual([
      { email: 'a@demo.test', role: 'Owner' },
      { email: 'b@demo.test' },
    ]);
  });

  it('is skipped, without a marker, while there is no seed module', async () => {
    const outcome = await seedOnce(root, root, 'http://localhost:9');
    expect(outcome.state).toBe('skipped');
    await expect(readFile(join(root, SEED_MARKER))).rejects.toThrow();
  });
});
