import { APP_VERSION, ERROR_REPORT_SAMPLE_RATE } from '../../shared/constants.ts';
import { isChunkLoadError } from './chunk-error.ts';

export type ClientErrorKind = 'error' | 'unhandledrejection' | 'render';

/** The body of POST /client-errors. */
export interface ClientErrorReport {
  kind: ClientErrorKind;
  message: string;
  stack?: string;
  url: string;
  release: string;
}

export interface ErrorReporter {
  /** Whether the error was sent. */
  report(error: unknown, kind?: ClientErrorKind): boolean;
}

export interface ErrorReporterOptions {
  send: (report: ClientErrorReport) => Promise<unknown>;
  /** Whether this browser session is one of the sampled ones. */
  sampled: boolean;
  url?: () => string;
  now?: () => number;
  /** The same error again within this time is not sent again. */
  repeatMs?: number;
  /** At most this many reports a minute leave one page, so a render loop cannot flood the API. */
  maxPerMinute?: number;
}

const MAX_MESSAGE = 2000;
const MAX_STACK = 8000;

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    return {
      message: `${error.name}: ${error.message}`.slice(0, MAX_MESSAGE),
      stack: error.stack?.slice(0, MAX_STACK),
    };
  }
  return {
    message: (typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))).slice(
      0,
      MAX_MESSAGE,
    ),
  };
}

/**
 * Client errors go to the API for half of the browser sessions (01 §9). A part of the app that fails
 * to load is a new version, not an error, and is never sent (01 §8).
 */
export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const now = options.now ?? Date.now;
  const repeatMs = options.repeatMs ?? 60_000;
  const maxPerMinute = options.maxPerMinute ?? 10;
  const lastSent = new Map<string, number>();
  let sentAt: number[] = [];

  return {
    report(error, kind = 'error') {
      if (!options.sampled || isChunkLoadError(error)) return false;
      const { message, stack } = describe(error);
      const t = now();
      const previous = lastSent.get(message);
      if (previous !== undefined && t - previous < repeatMs) return false;
      sentAt = sentAt.filter((s) => t - s < 60_000);
      if (sentAt.length >= maxPerMinute) return false;
      sentAt.push(t);
      lastSent.set(message, t);
      const report: ClientErrorReport = {
        kind,
        message,
        ...(stack ? { stack } : {}),
        url: (options.url ?? (() => globalThis.location?.href ?? ''))().slice(0, 2000),
        release: APP_VERSION,
      };
      // Reporting must never raise an error of its own.
      options.send(report).catch(() => undefined);
      return true;
    },
  };
}

const SAMPLE_KEY = 'voltfolio.errorReporting';

/**
 * Whether this browser session reports errors. Decided once per session and kept for it, so reloading
 * a page does not draw again.
 */
export function sessionSampled(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  random: () => number = Math.random,
  rate: number = ERROR_REPORT_SAMPLE_RATE,
): boolean {
  const kept = storage.getItem(SAMPLE_KEY);
  if (kept === 'on' || kept === 'off') return kept === 'on';
  const sampled = random() < rate;
  try {
    storage.setItem(SAMPLE_KEY, sampled ? 'on' : 'off');
  } catch {
    // Without storage the draw holds for this page only.
  }
  return sampled;
}

let active: ErrorReporter | undefined;

/** Sends uncaught errors and unhandled rejections of the page to the reporter. */
export function installErrorReporting(
  target: Pick<Window, 'addEventListener'>,
  reporter: ErrorReporter,
): void {
  active = reporter;
  target.addEventListener('error', (event) => {
    reporter.report((event as ErrorEvent).error ?? (event as ErrorEvent).message, 'error');
  });
  target.addEventListener('unhandledrejection', (event) => {
    reporter.report((event as PromiseRejectionEvent).reason, 'unhandledrejection');
  });
}

/** For errors caught by the app itself, such as a page that failed to render. */
export function reportClientError(error: unknown, kind: ClientErrorKind = 'render'): void {
  active?.report(error, kind);
}
