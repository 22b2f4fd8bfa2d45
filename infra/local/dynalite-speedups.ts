/**
 * Costs dynalite pays on every request that the real service does not make us wait for, removed without
 * changing what it answers (its on-disk store is also read from memory: see mirrored-level.ts):
 * - it parses each expression with a PEG parser, which took ~0.4 ms of a ~2.3 ms query; a handler sends
 *   the same few expressions again and again, so parses are remembered;
 * - it reads the table's description from LevelDB before every item call; it is kept in memory and
 *   dropped whenever the description is written or deleted;
 * - it checksums every response (`x-amz-crc32`) in JavaScript; zlib's native crc32 gives the same number.
 * Patched through dynalite's own module objects, which its code reads at call time.
 */
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import { type DiskLevelClass, type MemoryStoreClass, mirroredLevelClass } from './mirrored-level.ts';

type Callback = (err: Error | null, value?: unknown) => void;

interface ParseContext {
  attrNames?: Record<string, string>;
  attrVals?: Record<string, unknown>;
  unusedAttrNames?: Record<string, boolean>;
  unusedAttrVals?: Record<string, boolean>;
}

interface PegParser {
  parse(input: string, options: { context: ParseContext }): unknown;
}

interface Sublevel {
  get(key: string, options: unknown, callback?: Callback): unknown;
  put(...args: unknown[]): unknown;
  del(...args: unknown[]): unknown;
  batch(...args: unknown[]): unknown;
}

interface DynaliteDb {
  create(options: unknown): { tableDb: Sublevel };
}

/** Enough distinct expressions for any handler's set; beyond it the oldest are forgotten. */
const MAX_PARSES = 2000;

/**
 * A copy of a tree made of plain objects, arrays and primitives, which is all a parse or a JSON-decoded table
 * description holds. dynalite may change what it is given, so each caller gets its own copy; this one takes
 * about a tenth of structuredClone's time, which served every query several times over.
 */
export function cloneTree<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneTree) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = cloneTree((value as Record<string, unknown>)[key]);
  return out as T;
}

interface RememberedParse {
  result: unknown;
  usedNames: string[];
  usedValues: string[];
}

function rememberParses(parser: PegParser): void {
  const parse = parser.parse.bind(parser);
  const remembered = new Map<string, RememberedParse>();
  parser.parse = (input, options) => {
    const context = options.context;
    // Values are part of the key: the parsed tree holds them, and the same text with other names or
    // values is another parse.
    const key = `${input}\u0000${JSON.stringify(context.attrNames ?? null)}\u0000${JSON.stringify(context.attrVals ?? null)}`;
    const hit = remembered.get(key);
    if (hit) {
      // The caller checks afterwards that every name and value was used, from what the parse deleted.
      for (const name of hit.usedNames) delete context.unusedAttrNames?.[name];
      for (const value of hit.usedValues) delete context.unusedAttrVals?.[value];
      return cloneTree(hit.result);
    }
    const namesBefore = Object.keys(context.unusedAttrNames ?? {});
    const valuesBefore = Object.keys(context.unusedAttrVals ?? {});
    // A syntax error throws and is not remembered, so its message is built afresh each time.
    const result = parse(input, options);
    if (remembered.size >= MAX_PARSES) {
      const oldest = remembered.keys().next();
      if (!oldest.done) remembered.delete(oldest.value);
    }
    remembered.set(key, {
      result: cloneTree(result),
      usedNames: namesBefore.filter((n) => !(n in (context.unusedAttrNames ?? {}))),
      usedValues: valuesBefore.filter((v) => !(v in (context.unusedAttrVals ?? {}))),
    });
    return result;
  };
}

/** Table descriptions served from memory; any write to them empties the memory first. */
function rememberTables(tableDb: Sublevel): void {
  const get = tableDb.get.bind(tableDb);
  const remembered = new Map<string, unknown>();
  // A read that started before a write must not store what it read after the write emptied the memory.
  let generation = 0;
  const forgetting =
    (original: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      generation++;
      remembered.clear();
      return original(...args);
    };
  tableDb.put = forgetting(tableDb.put.bind(tableDb));
  tableDb.del = forgetting(tableDb.del.bind(tableDb));
  tableDb.batch = forgetting(tableDb.batch.bind(tableDb));
  tableDb.get = (key, options, callback) => {
    const cb = (typeof options === 'function' ? options : callback) as Callback | undefined;
    if (!cb || typeof key !== 'string') return get(key, options, callback);
    const known = remembered.get(key);
    if (known !== undefined) {
      process.nextTick(cb, null, cloneTree(known));
      return undefined;
    }
    const started = generation;
    return get(key, (err: Error | null, value?: unknown) => {
      if (!err && value && typeof value === 'object' && started === generation) {
        remembered.set(key, cloneTree(value));
      }
      cb(err, value);
    });
  };
}

const PATCHED = Symbol.for('voltfolio.dynalite-speedups');

/**
 * Call before a dynalite server is created; later calls in the same process change nothing. Called before
 * dynalite is first imported, it also gives dynalite's on-disk store a copy in memory to read from (see
 * mirrored-level.ts); an in-memory dynalite (the tests') has no use for it.
 */
export function speedUpDynalite(): void {
  const require = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const loaded = require.cache[require.resolve('./db')]?.exports as
    | (DynaliteDb & { [PATCHED]?: true })
    | undefined;
  if (loaded?.[PATCHED]) return;
  if (!loaded) {
    // dynalite's store takes its LevelDB class when its module first loads, so the class is swapped before.
    const levelRequire = createRequire(require.resolve('level'));
    const level = levelRequire('level') as { Level: unknown };
    level.Level = mirroredLevelClass(
      (require('memory-level') as { MemoryLevel: MemoryStoreClass }).MemoryLevel,
      (levelRequire('classic-level') as { ClassicLevel: DiskLevelClass }).ClassicLevel,
    );
  }
  const db = require('./db') as DynaliteDb & { [PATCHED]?: true };
  db[PATCHED] = true;
  for (const name of ['conditionParser', 'projectionParser', 'updateParser']) {
    rememberParses(require(`./db/${name}`) as PegParser);
  }
  const create = db.create.bind(db);
  db.create = (options) => {
    const store = create(options);
    rememberTables(store.tableDb);
    return store;
  };
  const checksum = require('buffer-crc32') as { unsigned(input: string | Buffer): number };
  checksum.unsigned = (input) => crc32(input);
}
