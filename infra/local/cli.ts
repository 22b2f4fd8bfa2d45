import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { relative } from 'node:path';
import { isWipeable, type Log, optionsFromEnv, StartError } from './options.ts';
import { demoDevicesOf, demoPassword, loginsOf } from './seeding.ts';
import { type LocalStack, startStack } from './stack.ts';

const log: Log = (message, data) => {
  const time = new Date().toISOString().slice(11, 23);
  console.log(`${time} local  ${message}${data ? ` ${JSON.stringify(data)}` : ''}`);
};

/** What the banner shows of a running stack. */
export type BannerStack = Pick<LocalStack, 'urls' | 'ports' | 'stateDir' | 'env' | 'seed' | 'components'>;

/** The text `npm start` and `npm run reset` print once the stack is up: where everything is, and who can sign in. */
export async function banner(stack: BannerStack, mode: 'start' | 'reset', repoRoot: string): Promise<string> {
  const { urls, ports, stateDir } = stack;
  const shownDir = relative(process.cwd(), stateDir) || '.';
  const lines = [
    '',
    `Voltfolio is running (Node ${process.version}, ready ${process.uptime().toFixed(1)} s after launch)`,
    '',
    `  App          ${urls.origin}/`,
    `  API          ${urls.apiUrl}        health: ${urls.apiUrl}/health`,
    `  WebSocket    ${urls.wsUrl}`,
    `  Sign-in      ${urls.issuer}       (OpenID provider, client voltfolio-web)`,
    `  S3           ${urls.s3PublicEndpoint}  → emulator http://127.0.0.1:${ports.aws} (SQS on the same port)`,
    `  DynamoDB     http://127.0.0.1:${ports.dynamo}   table ${stack.env.TABLE_NAME}`,
    `  SMTP inbox   127.0.0.1:${ports.smtp}   (mail sent here is stored in ${stack.env.BUCKET_INBOX}/mail/ and taken in)`,
    `  Sent mail    ${shownDir}/outbox/  (what the product sends, as .eml files)`,
    `  State        ${shownDir}/  ${mode === 'reset' ? '(just wiped and seeded again)' : '(`npm run reset` wipes it, then starts afresh and seeds again)'}`,
    '',
  ];
  const seed = stack.seed;
  const logins = loginsOf(seed?.summary);
  if (seed?.state === 'skipped') lines.push(`  Demo data not seeded: ${seed.note}`);
  else if (logins.length > 0) {
    const password = await demoPassword(repoRoot, seed?.summary).catch(() => undefined);
    lines.push(`  Demo logins${password ? ` (password for all: ${password})` : ''}:`);
    for (const l of logins) lines.push(`    ${l.email.padEnd(24)}${l.role ?? ''}`);
    const devices = demoDevicesOf(seed?.summary);
    if (devices) {
      const { kiosk, machine } = devices;
      const xKey = `X-Key: ${machine.id}:${machine.key}`;
      lines.push(
        `  Demo kiosk   ${urls.origin}/kiosk/${kiosk.id}?kioskAuth=${kiosk.id}|${kiosk.secret}`,
        `  Demo machine ${xKey}   e.g. curl -H '${xKey}' ${urls.apiUrl}/users/me`,
      );
    }
    if (seed?.state === 'existing')
      lines.push(`  (seeded ${seed.seededAt ?? 'earlier'}; changes since are kept)`);
  }
  const problems = [...stack.components].filter(([, c]) => c.status === 'failed');
  if (problems.length > 0) {
    lines.push('', '  NOT everything is up; /api/health answers 503 until this is fixed:');
    for (const [name, c] of problems) {
      for (const line of (c.detail ?? 'failed').split('; ')) lines.push(`    ${name}: ${line}`);
    }
  }
  lines.push('', '  Ctrl+C stops it; data stays until `npm run reset`.', '');
  return lines.join('\n');
}

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** Starts the stack in the foreground until SIGINT/SIGTERM; `reset` wipes the state directory first. */
export async function runLocalStack(mode: 'start' | 'reset'): Promise<void> {
  const options = optionsFromEnv(log);
  console.log(`Voltfolio local stack on Node ${process.version}`);
  if (mode === 'reset') {
    if (options.port !== 0 && !(await portIsFree(options.port, options.bindHost))) {
      console.error(`Port ${options.port} is in use: stop the running stack first; nothing was wiped.`);
      process.exitCode = 1;
      return;
    }
    if (!isWipeable(options.stateDir)) {
      console.error(
        `${options.stateDir} is not a Voltfolio state directory (no .voltfolio-state file); not wiping it.`,
      );
      process.exitCode = 1;
      return;
    }
    await rm(options.stateDir, { recursive: true, force: true });
    console.log(`Wiped ${options.stateDir}; starting afresh, the demo data is seeded again.`);
  }
  let stack: LocalStack;
  try {
    stack = await startStack(options);
  } catch (err) {
    const reason =
      err instanceof StartError
        ? err.message
        : err instanceof Error
          ? (err.stack ?? err.message)
          : String(err);
    console.error(`The local stack could not start: ${reason}`);
    process.exitCode = 1;
    return;
  }
  console.log(await banner(stack, mode, options.repoRoot));

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      console.log('Stopping at once.');
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: stopping (Ctrl+C again to stop at once)…`);
    const force = setTimeout(() => {
      console.error('Stopping took too long; exiting.');
      process.exit(1);
    }, 15_000);
    force.unref();
    stack.stop().then(
      () => {
        console.log('Stopped. State kept in', options.stateDir);
        process.exit(0);
      },
      (err: unknown) => {
        console.error('Stopping failed:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
