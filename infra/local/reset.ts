/** `npm run reset`: deletes the state directory, then starts the stack, which seeds the demo data again. */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode();
const { runLocalStack } = await import('./cli.ts');
await runLocalStack('reset');
