/** The local stack runs TypeScript directly and uses node:sqlite: Node 24 or newer. */
export const MIN_NODE_MAJOR = 24;

/** Why this Node cannot run the stack, or undefined when it can. */
export function unsupportedNodeMessage(version: string, execPath: string): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return (
    `Voltfolio's local stack needs Node ${MIN_NODE_MAJOR} or newer, but this is Node ${version} (${execPath}).\n` +
    "Start it with `npm start`: npm scripts put the project's own Node (node_modules/.bin/node) first on " +
    'PATH. Or run node_modules/.bin/node infra/local/start.ts.'
  );
}

/** Stops with a clear message on an older Node, before anything that needs a newer one is loaded. */
export function requireSupportedNode(): void {
  const message = unsupportedNodeMessage(process.versions.node, process.execPath);
  if (!message) return;
  console.error(message);
  process.exit(1);
}
