import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { QueueDecl } from '../../shared/system/functions.ts';

/** The repository root (infra/local/ is two levels down). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export type Log = (message: string, data?: Record<string, unknown>) => void;

export interface StackOptions {
  repoRoot: string;
  stateDir: string;
  /** Gateway port; 0 picks a free one. */
  port: number;
  /** Host name in the browser-facing origin. */
  publicHost: string;
  /** Address the gateway, DynamoDB and SMTP listen on. */
  bindHost: string;
  smtpPort: number;
  dynamoPort: number;
  /** SQS + S3 emulator port (fauxqs always listens on all interfaces). */
  awsPort: number;
  /** Textract stand-in port; 0 or absent picks a free one. */
  textractPort?: number;
  seed: boolean;
  /** watch: build and rebuild on change; build: once; serve: only serve what the directory holds. */
  web: 'watch' | 'build' | 'serve';
  /** Which declared queues get a consumer; false for none. */
  pollers: boolean | ((decl: QueueDecl) => boolean);
  schedules: boolean;
  /** Shorter visibility timeouts let tests see retries and dead-lettering in seconds. */
  visibilityTimeoutSeconds?: number;
  /** LOG_LEVEL for the functions. */
  logLevel: string;
  log: Log;
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number, not "${raw}"`);
  return port;
}

export const defaultStateDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.VOLTFOLIO_STATE_DIR ? resolve(env.VOLTFOLIO_STATE_DIR) : join(REPO_ROOT, '.local');

/**
 * `npm start`'s settings: PORT, SMTP_PORT, DYNAMODB_PORT, AWS_EMULATOR_PORT, TEXTRACT_PORT,
 * VOLTFOLIO_STATE_DIR, LOG_LEVEL.
 */
export function optionsFromEnv(log: Log, env: NodeJS.ProcessEnv = process.env): StackOptions {
  return {
    repoRoot: REPO_ROOT,
    stateDir: defaultStateDir(env),
    port: portFrom(env, 'PORT', 3000),
    publicHost: env.PUBLIC_HOST || 'localhost',
    bindHost: env.BIND_HOST || '127.0.0.1',
    smtpPort: portFrom(env, 'SMTP_PORT', 2525),
    dynamoPort: portFrom(env, 'DYNAMODB_PORT', 4567),
    awsPort: portFrom(env, 'AWS_EMULATOR_PORT', 4566),
    textractPort: portFrom(env, 'TEXTRACT_PORT', 4568),
    seed: env.SEED !== 'false',
    web: env.WEB_BUILD === 'once' ? 'build' : env.WEB_BUILD === 'off' ? 'serve' : 'watch',
    pollers: true,
    schedules: true,
    logLevel: env.LOG_LEVEL || 'info',
    log,
  };
}

/** A start failure whose message says all (no stack trace needed). */
export class StartError extends Error {}

/** A port already taken becomes a StartError naming the variable that moves it. */
export function explainPortError(err: unknown, port: number, variable: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'EADDRINUSE'
    ? new StartError(`Port ${port} is in use (set ${variable} to use another)`)
    : err;
}

/** Marks a directory as a state directory, so that reset never wipes a directory that is something else. */
export const STATE_MARKER = '.voltfolio-state';

export async function prepareStateDir(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const marker = join(stateDir, STATE_MARKER);
  if (!existsSync(marker)) {
    await writeFile(marker, 'State of the Voltfolio local stack; `npm run reset` deletes this directory.\n');
  }
}

/** A state directory may be wiped when it is absent, empty, or marked as one. */
export function isWipeable(stateDir: string): boolean {
  if (!existsSync(stateDir)) return true;
  if (existsSync(join(stateDir, STATE_MARKER))) return true;
  return readdirSync(stateDir).length === 0 && dirname(stateDir) !== stateDir;
}
