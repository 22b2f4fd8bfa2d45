/**
 * Reads documents on a thread of its own: pdf.js parses and renders synchronously, and the gateway,
 * the functions and the other emulators share the main thread's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { errorData } from './errors.ts';
import { stopOcr } from './ocr.ts';
import { type ReadOptions, readDocument } from './reader.ts';

export type ReaderRequest =
  | { type: 'read'; id: number; bytes: Uint8Array; options: ReadOptions }
  | { type: 'stop' };

parentPort?.on('message', (message: ReaderRequest) => {
  if (message.type === 'stop') {
    void stopOcr().finally(() => {
      parentPort?.postMessage({ type: 'stopped' });
      process.exit(0);
    });
    return;
  }
  const { id, bytes, options } = message;
  readDocument(bytes, options).then(
    (document) => parentPort?.postMessage({ type: 'read', id, document }),
    (err: unknown) => parentPort?.postMessage({ type: 'failed', id, error: errorData(err) }),
  );
});
