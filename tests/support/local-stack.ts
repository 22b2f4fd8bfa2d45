import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Log, REPO_ROOT, type StackOptions } from '../../infra/local/options.ts';
import { type LocalStack, startStack } from '../../infra/local/stack.ts';

export interface LocalStackOptions {
  /** Kept after stop when given; otherwise a temporary directory that stop removes. */
  stateDir?: string;
  seed?: boolean;
  /** Gateway port; by default a free one (the same one again for later stacks in this process). */
  port?: number;
  pollers?: StackOptions['pollers'];
  visibilityTimeoutSeconds?: number;
  /** serve (default): no web build, the directory is served as it is. */
  web?: StackOptions['web'];
  log?: Log;
}

export interface LocalStackHandle {
  origin: string;
  apiUrl: string;
  wsUrl: string;
  smtpPort: number;
  env: Record<string, string>;
  stateDir: string;
  stack: LocalStack;
  drainQueues(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The handlers read process.env when first used and keep their clients (and the token issuer they
 * trust) for the life of the process. A later stack in the same test process therefore takes the ports
 * of the first one, so those clients still reach it.
 */
let remembered: { http: number; dynamo: number; aws: number; smtp: number; textract: number } | undefined;
let running = 0;

/** The whole local stack in this process, on free ports, with process.env pointing at it. */
export async function startLocalStack(opts: LocalStackOptions = {}): Promise<LocalStackHandle> {
  const ownDir = opts.stateDir === undefined;
  const stateDir = opts.stateDir ?? (await mkdtemp(join(tmpdir(), 'voltfolio-stack-')));
  const ports = running === 0 ? remembered : undefined;
  const stack = await startStack({
    repoRoot: REPO_ROOT,
    stateDir,
    port: opts.port ?? ports?.http ?? 0,
    publicHost: 'localhost',
    bindHost: '127.0.0.1',
    smtpPort: ports?.smtp ?? 0,
    dynamoPort: ports?.dynamo ?? 0,
    awsPort: ports?.aws ?? 0,
    textractPort: ports?.textract ?? 0,
    seed: opts.seed ?? false,
    web: opts.web ?? 'serve',
    pollers: opts.pollers ?? true,
    schedules: true,
    visibilityTimeoutSeconds: opts.visibilityTimeoutSeconds,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'error',
    log: opts.log ?? (() => {}),
  });
  running++;
  remembered ??= { ...stack.ports };
  let stopped = false;
  return {
    origin: stack.urls.origin,
    apiUrl: stack.urls.apiUrl,
    wsUrl: stack.urls.wsUrl,
    smtpPort: stack.ports.smtp,
    env: stack.env,
    stateDir,
    stack,
    drainQueues: (timeoutMs) => stack.drainQueues(timeoutMs),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stack.stop();
      running--;
      if (ownDir) await rm(stateDir, { recursive: true, force: true });
    },
  };
}
