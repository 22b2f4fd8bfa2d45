import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BannerStack, banner } from '../../infra/local/cli.ts';
import { localUrls } from '../../infra/local/environment.ts';
import type { Component } from '../../infra/local/health.ts';
import { isWipeable, prepareStateDir, REPO_ROOT } from '../../infra/local/options.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../infra/local/seed/demo-users.ts';

const stack = (over: Partial<BannerStack> = {}): BannerStack => ({
  urls: { ...localUrls('http://localhost:3000'), issuer: 'http://localhost:3000/oidc' },
  ports: { http: 3000, smtp: 2525, dynamo: 41001, aws: 41002, textract: 41003 },
  stateDir: join(REPO_ROOT, '.local-state'),
  env: { TABLE_NAME: 'voltfolio-local', BUCKET_INBOX: 'voltfolio-inbox' },
  seed: {
    state: 'seeded',
    summary: { users: DEMO_USERS.map((u) => ({ email: u.email, role: 'Owner' })), password: DEMO_PASSWORD },
  },
  components: new Map<string, Component>([['dynamodb', { status: 'up' }]]),
  ...over,
});

describe('the start banner', () => {
  it('names the app, API, health, WebSocket, sign-in and SMTP addresses', async () => {
    const text = await banner(stack(), 'start', REPO_ROOT);
    const lines = text.split('\n');
    const line = (label: string) => lines.find((l) => l.trimStart().startsWith(label)) ?? '';
    expect(line('App')).toContain('http://localhost:3000/');
    expect(line('API')).toContain('http://localhost:3000/api');
    expect(line('API')).toContain('health: http://localhost:3000/api/health');
    expect(line('WebSocket')).toContain('ws://localhost:3000/ws');
    expect(line('Sign-in')).toContain('http://localhost:3000/oidc');
    expect(line('SMTP inbox')).toContain('127.0.0.1:2525');
    expect(text).toContain('table voltfolio-local');
    expect(text).not.toMatch(/NOT everything is up/);
  });

  it('prints every demo login and the one shared password', async () => {
    const text = await banner(stack(), 'start', REPO_ROOT);
    expect(text).toContain(`Demo logins (password for all: ${DEMO_PASSWORD})`);
    for (const user of DEMO_USERS)
      expect(text).toMatch(new RegExp(`^ {4}${user.email.replaceAll('.', '\\.')}`, 'm'));
  });

  it('finds the password in the seed plans when the summary does not carry it', async () => {
    const text = await banner(
      stack({ seed: { state: 'existing', summary: { users: [{ email: 'owner@demo.test' }] } } }),
      'start',
      REPO_ROOT,
    );
    expect(text).toContain(`password for all: ${DEMO_PASSWORD}`);
    expect(text).toContain('changes since are kept');
  });

  it('says after a reset that the state was wiped and seeded again', async () => {
    expect(await banner(stack(), 'reset', REPO_ROOT)).toContain('just wiped and seeded again');
    expect(await banner(stack(), 'start', REPO_ROOT)).toContain('`npm run reset` wipes it');
  });

  it('lists what failed, part by part', async () => {
    const components = new Map<string, Component>([
      ['dynamodb', { status: 'up' }],
      ['smtp', { status: 'failed', detail: 'Port 2525 is in use; set SMTP_PORT' }],
    ]);
    const text = await banner(stack({ components }), 'start', REPO_ROOT);
    expect(text).toContain('NOT everything is up');
    expect(text).toContain('smtp: Port 2525 is in use');
    expect(text).toContain('smtp: set SMTP_PORT');
  });
});

describe('the reset guard', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'voltfolio-wipe-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('wipes a state directory the stack made, or one that is absent or empty', async () => {
    expect(isWipeable(join(root, 'never-made'))).toBe(true);
    const state = join(root, 'state');
    await prepareStateDir(state);
    await writeFile(join(state, 'seeded.json'), '{}');
    expect(isWipeable(state)).toBe(true);
    const empty = join(root, 'empty');
    await prepareStateDir(empty);
    await rm(join(empty, '.voltfolio-state'));
    expect(isWipeable(empty)).toBe(true);
  });

  it('refuses a directory with other files and no marker, and the filesystem root', async () => {
    const other = join(root, 'documents');
    await prepareStateDir(other);
    await rm(join(other, '.voltfolio-state'));
    await writeFile(join(other, 'thesis.docx'), 'years of work');
    expect(isWipeable(other)).toBe(false);
    expect(isWipeable(REPO_ROOT)).toBe(false);
    expect(isWipeable('/')).toBe(false);
  });
});
