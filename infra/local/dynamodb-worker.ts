/**
 * Runs dynalite on its own thread. The local stack's gateway, handlers and DynamoDB would otherwise
 * share one event loop, so under load every request would wait for the emulator's work too.
 */
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { speedUpDynalite } from './dynalite-speedups.ts';
import { withTransactWrites } from './dynalite-transactions.ts';

interface DynamoWorkerData {
  dir: string;
  port: number;
  host: string;
}

const { dir, port, host } = workerData as DynamoWorkerData;
speedUpDynalite();
// Imported after the speed-ups, which replace the store class dynalite reads when it loads.
const { default: dynalite } = await import('dynalite');
const server = withTransactWrites(() =>
  dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }),
);

server.once('error', (err: Error) => parentPort?.postMessage({ type: 'error', message: err.message }));
server.listen(port, host, () => {
  parentPort?.postMessage({ type: 'ready', port: (server.address() as AddressInfo).port });
});

parentPort?.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  server.close(() => {
    parentPort?.postMessage({ type: 'stopped' });
    process.exit(0);
  });
});
