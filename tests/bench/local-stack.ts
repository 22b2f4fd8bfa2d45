/**
 * The local stack (`npm start`) as benchmarks run it: a child process on free ports and its own state
 * directory, and the CPU time of the child's main thread, where the gateway and every function run.
 * DynamoDB (dynalite) runs on a worker thread of the same process (infra/local/dynamodb-worker.ts), so the
 * main thread's time leaves the emulator out.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { REPO_ROOT } from '../../infra/build/bundle-functions.ts';

export interface Ports {
  port: number;
  smtpPort: number;
  dynamoPort: number;
  awsPort: number;
  textractPort: number;
}

export interface RunningStack {
  origin: string;
  pid: number;
  ports: Ports;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function freePorts(): Promise<Ports> {
  return {
    port: await freePort(),
    smtpPort: await freePort(),
    dynamoPort: await freePort(),
    awsPort: await freePort(),
    textractPort: await freePort(),
  };
}

/**
 * Starts `npm start` and waits until it answers healthy. `env` adds variables (e.g. the consumed capacity
 * switch); `nodeOptions` adds flags to the child's node (e.g. `--cpu-prof`).
 */
export async function startStack(
  stateDir: string,
  ports: Ports,
  opts: { env?: Record<string, string>; nodeOptions?: string[]; healthyWithinMs?: number } = {},
): Promise<{ stack: RunningStack; seconds: number }> {
  const { port } = ports;
  const started = performance.now();
  const child = spawn(process.execPath, [...(opts.nodeOptions ?? []), 'infra/local/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      SMTP_PORT: String(ports.smtpPort),
      DYNAMODB_PORT: String(ports.dynamoPort),
      AWS_EMULATOR_PORT: String(ports.awsPort),
      TEXTRACT_PORT: String(ports.textractPort),
      VOLTFOLIO_STATE_DIR: stateDir,
      WEB_BUILD: 'once',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    // BENCH_STACK_LOGS=1 shows the functions' own log lines (errors among them).
    stdio: ['ignore', process.env.BENCH_STACK_LOGS === '1' ? 'inherit' : 'ignore', 'inherit'],
  });
  const origin = `http://localhost:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    const within = opts.healthyWithinMs ?? 120_000;
    if (performance.now() - started > within) {
      // Left running, the stack would hold its ports and the machine's cores after this process exits.
      child.kill('SIGTERM');
      await exited;
      throw new Error(`the local stack did not become healthy in ${within / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const pid = child.pid;
  if (pid === undefined) throw new Error('npm start has no process id');
  return {
    seconds,
    stack: {
      origin,
      pid,
      ports,
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    },
  };
}

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) one thread of a process has used so far, from Linux's /proc. The main
 * thread's id is the process id. Resolution is a clock tick (10 ms), fine over a load of many seconds.
 */
export function threadCpuSeconds(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after pid and comm.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds of every thread of a process (main, workers, the runtime's own helpers), with their names. */
export function threadsCpuSeconds(pid: number): { tid: number; name: string; seconds: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((entry) => {
    const tid = Number(entry);
    return {
      tid,
      name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
      seconds: threadCpuSeconds(pid, tid),
    };
  });
}
