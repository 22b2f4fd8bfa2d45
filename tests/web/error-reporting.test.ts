import { describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../shared/constants.ts';
import { ChunkLoadError } from '../../web/lib/chunk-error.ts';
import {
  type ClientErrorReport,
  createErrorReporter,
  sessionSampled,
} from '../../web/lib/error-reporting.ts';

function reporter(sampled = true, now = () => 1_000_000) {
  const sent: ClientErrorReport[] = [];
  const r = createErrorReporter({
    send: async (report) => {
      sent.push(report);
    },
    sampled,
    url: () => 'http://localhost:3000/assets',
    now,
  });
  return { r, sent };
}

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (k: string) => values.get(k) ?? null,
    setItem: (k: string, v: string) => void values.set(k, v),
  };
}

describe('client error reporting', () => {
  it('sends the error, where it happened and the release', () => {
    const { r, sent } = reporter();
    const error = new TypeError('x is undefined');
    expect(r.report(error)).toBe(true);
    expect(sent).toEqual([
      {
        kind: 'error',
        message: 'TypeError: x is undefined',
        stack: error.stack,
        url: 'http://localhost:3000/assets',
        release: APP_VERSION,
      },
    ]);
  });

  it('never sends a part of the app that failed to load', () => {
    const { r, sent } = reporter();
    expect(r.report(new ChunkLoadError('timed out'))).toBe(false);
    expect(r.report(new TypeError('Failed to fetch dynamically imported module: /assets/chunk-A.js'))).toBe(
      false,
    );
    expect(sent).toEqual([]);
  });

  it('sends nothing from sessions that were not sampled', () => {
    const { r, sent } = reporter(false);
    expect(r.report(new Error('boom'))).toBe(false);
    expect(sent).toEqual([]);
  });

  it('sends the same error once a minute, and at most 10 errors a minute', () => {
    let t = 0;
    const { r, sent } = reporter(true, () => t);
    r.report(new Error('same'));
    r.report(new Error('same'));
    expect(sent).toHaveLength(1);
    t = 60_000;
    r.report(new Error('same'));
    expect(sent).toHaveLength(2);
    for (let i = 0; i < 20; i++) r.report(new Error(`e${i}`));
    // One from the first minute, ten from this one.
    expect(sent).toHaveLength(11);
  });

  it('describes rejections that are not errors', () => {
    const { r, sent } = reporter();
    r.report({ status: 500 }, 'unhandledrejection');
    r.report('plain text', 'unhandledrejection');
    expect(sent.map((s) => [s.kind, s.message])).toEqual([
      ['unhandledrejection', '{"status":500}'],
      ['unhandledrejection', 'plain text'],
    ]);
  });

  it('swallows a report that could not be sent', async () => {
    const r = createErrorReporter({ send: () => Promise.reject(new Error('offline')), sampled: true });
    expect(r.report(new Error('boom'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});

describe('session sampling', () => {
  it('reports from half of the sessions', () => {
    expect(sessionSampled(memoryStorage(), () => 0.49)).toBe(true);
    expect(sessionSampled(memoryStorage(), () => 0.5)).toBe(false);
  });

  it('draws once per session and keeps the draw across page loads', () => {
    const storage = memoryStorage();
    const random = vi.fn(() => 0.1);
    expect(sessionSampled(storage, random)).toBe(true);
    random.mockReturnValue(0.9);
    expect(sessionSampled(storage, random)).toBe(true);
    expect(random).toHaveBeenCalledTimes(1);
  });
});
