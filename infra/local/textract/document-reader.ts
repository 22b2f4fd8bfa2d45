import { Worker } from 'node:worker_threads';
import { FUNCTIONS } from '../../../shared/system/functions.ts';
import { type ErrorData, fromErrorData, TextractError } from './errors.ts';
import type { DocumentText } from './page-text.ts';
import type { ReadOptions } from './reader.ts';
import type { ReaderRequest } from './reader-thread.ts';

type ReaderReply =
  | { type: 'read'; id: number; document: DocumentText }
  | { type: 'failed'; id: number; error: ErrorData }
  | { type: 'stopped' };

export interface Reader {
  read(bytes: Uint8Array, options: ReadOptions): Promise<DocumentText>;
  stop(): Promise<void>;
}

/**
 * The reading thread's heap ceiling, in MB: half the capture function's memory, whose Textract calls it
 * stands in for. Pictures and pages are kept within it by their pixel limits (reader.ts) before decoding;
 * a document that still outgrows it ends the thread, and the read fails rather than the stack.
 */
export const READER_HEAP_MB = Math.floor((FUNCTIONS.find((f) => f.name === 'capture')?.memoryMb ?? 1024) / 2);

/**
 * The reading thread, started with the first document (a stack that never reads one never loads
 * pdf.js or the OCR engine), and again after it died.
 */
export function createReader(): Reader {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { via: Worker; resolve(d: DocumentText): void; reject(e: Error): void }>();

  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(new URL('./reader-thread.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    started.on('message', (reply: ReaderReply) => {
      if (reply.type === 'stopped') return;
      const call = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.type === 'read') call?.resolve(reply.document);
      else call?.reject(fromErrorData(reply.error));
    });
    const lost = (reason: string) => {
      if (worker === started) worker = undefined;
      for (const [id, call] of pending) {
        if (call.via !== started) continue;
        pending.delete(id);
        call.reject(new TextractError('InternalServerError', reason, 500));
      }
    };
    started.on('error', (err) => lost(`The document reader failed: ${err.message}`));
    started.on('exit', (code) => lost(`The document reader stopped (exit ${code})`));
    worker = started;
    return started;
  };

  return {
    read(bytes, options) {
      const id = nextId++;
      const via = thread();
      // Handed over rather than copied where possible; Node's Buffers cannot be handed over.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const handed = whole && !Buffer.isBuffer(bytes) ? bytes : new Uint8Array(bytes);
      const request: ReaderRequest = { type: 'read', id, bytes: handed, options };
      via.postMessage(request, [handed.buffer as ArrayBuffer]);
      // The reply comes on a later turn of the event loop, so it cannot arrive before this is set.
      return new Promise<DocumentText>((resolve, reject) => pending.set(id, { via, resolve, reject }));
    },
    async stop() {
      const current = worker;
      worker = undefined;
      if (!current) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.postMessage({ type: 'stop' } satisfies ReaderRequest);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
      await current.terminate();
    },
  };
}
