/** `npm start`: the whole product on this machine. */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode();
const { runLocalStack } = await import('./cli.ts');
await runLocalStack('start');
