import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions.ts';
import { SCHEDULES } from '../../shared/system/pipeline.ts';

const STACKS = ['Data', 'Auth', 'Email', 'Realtime', 'Pipeline', 'Api', 'Web'];

/** The environment of a machine with no AWS account: no AWS_* variables, no ~/.aws, no instance metadata. */
function offlineEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('AWS_') && !key.startsWith('CDK_')) env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    AWS_EC2_METADATA_DISABLED: 'true',
    PATH: [join(REPO_ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('npx cdk synth', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'voltfolio-synth-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('synthesises every stack offline, without AWS credentials', { timeout: 180_000 }, async () => {
    const out = join(scratch, 'cdk.out');
    const cdk = join(REPO_ROOT, 'node_modules', '.bin', 'cdk');
    const { code, output } = await run(
      cdk,
      ['synth', '--quiet', '--no-notices', '--output', out],
      offlineEnv(join(scratch, 'home')),
    );
    expect(code, output).toBe(0);
    const expected = [...STACKS, ...(SCHEDULES.length > 0 ? ['Schedules'] : [])].map((s) => `Voltfolio-${s}`);
    const templates = readdirSync(out).filter((f) => f.endsWith('.template.json'));
    expect(templates.sort()).toEqual(expected.map((s) => `${s}.template.json`).sort());
    for (const stack of expected) {
      const template = JSON.parse(readFileSync(join(out, `${stack}.template.json`), 'utf8')) as {
        Resources?: Record<string, unknown>;
      };
      expect(Object.keys(template.Resources ?? {}).length, stack).toBeGreaterThan(0);
    }
    // The web stack deploys the SPA built during synthesis, not an empty folder.
    const spa = readdirSync(out).filter((d) => existsSync(join(out, d, 'index.html')));
    expect(spa).toHaveLength(1);
    expect(readFileSync(join(out, spa[0] as string, 'index.html'), 'utf8')).toMatch(
      /<script type="module" src="\/assets\/main-/,
    );
    expect(existsSync(join(out, spa[0] as string, 'config.json'))).toBe(false);
  });
});
