/**
 * Costs dynalite pays on every request that the real service does not make us wait for, removed without
 * changing what it answers (its on-disk store is also read from memory: see mirrored-level.ts):
 * - it parses each expression with a PEG parser, which took ~0.4 ms of a ~2.3 ms query; a handler sends
 *   the same few expressions again and again, so parses are remembered (an update's by its values' types
 *   only, since a bulk write sends one expression with different figures thousands of times);
 * - it reads the table's description from LevelDB before every item call; it is kept in memory and
 *   dropped whenever the description is written or deleted;
 * - it checksums every response (`x-amz-crc32`) in JavaScript; zlib's native crc32 gives the same number;
 * - it checks a request's types with a walk that re-reads its type descriptions at every attribute value
 *   (see dynalite-check-types.ts);
 * - it hashes an item's partition key (MD5) each time it makes the item's storage key, though a bulk write
 *   sends many items of one partition: the few thousand latest are remembered.
 * Patched through dynalite's own module objects, which its code reads at call time.
 */
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import { checkTypes } from './dynalite-check-types.ts';
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

interface KeyTable {
  KeySchema: unknown;
}

interface DynaliteDb {
  create(options: unknown): { tableDb: Sublevel };
  createKey(item: Record<string, Record<string, string>>, table: KeyTable, keySchema?: unknown): string;
  hashPrefix(hashKey: string, hashType: string): string;
  toRangeStr(value: string, type: string): string;
  traverseKey(
    table: KeyTable,
    keySchema: unknown,
    visit: (attr: string, type: string, isHash: boolean) => unknown,
  ): unknown;
}

/** Partition keys' hash prefixes remembered; beyond this many the memory starts again. */
const MAX_HASHES = 10_000;

/** dynalite's createKey with its hash prefix (a pure function of the key's value and type) remembered. */
function rememberKeyHashes(db: DynaliteDb): void {
  const hashes = new Map<string, string>();
  const hashOf = (value: string, type: string) => {
    const key = `${type}\u0000${value}`;
    let hash = hashes.get(key);
    if (hash === undefined) {
      hash = db.hashPrefix(value, type);
      if (hashes.size >= MAX_HASHES) hashes.clear();
      hashes.set(key, hash);
    }
    return hash;
  };
  db.createKey = (item, table, keySchema) => {
    let keyStr = '';
    db.traverseKey(table, keySchema ?? table.KeySchema, (attr, type, isHash) => {
      const value = (item[attr] as Record<string, string>)[type] as string;
      if (isHash) keyStr = `${hashOf(value, type)}/`;
      keyStr += `${db.toRangeStr(value, type)}/`;
    });
    return keyStr;
  };
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

/** Where an expression's value went in a remembered update parse, to be filled with the next call's value. */
class ValueSlot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** A copy of a parse with each of the given value objects (found by identity) replaced by its slot. */
function withSlots(value: unknown, slots: Map<unknown, ValueSlot>): unknown {
  const slot = slots.get(value);
  if (slot) return slot;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withSlots(v, slots));
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = withSlots((value as Record<string, unknown>)[key], slots);
  return out;
}

/** A copy of a remembered parse with its slots filled from this call's values. */
function filled(value: unknown, values: Record<string, unknown>): unknown {
  if (value instanceof ValueSlot) return values[value.name];
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => filled(v, values));
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = filled((value as Record<string, unknown>)[key], values);
  return out;
}

/** Every value object of a parse, so each used value can be checked to sit in it as given. */
function objectsIn(value: unknown, found: Set<unknown>): Set<unknown> {
  if (value === null || typeof value !== 'object' || found.has(value)) return found;
  found.add(value);
  for (const v of Array.isArray(value) ? value : Object.values(value)) objectsIn(v, found);
  return found;
}

const only = (all: Record<string, unknown> | undefined, wanted: readonly string[]) =>
  wanted.map((name) => [name, all?.[name] ?? null]);

/** A text, absent or not, written so no two differ only in where one ends: its length first. */
const part = (text: unknown) => (typeof text === 'string' ? `${text.length}:${text}` : '-');

/**
 * What a parse is remembered by: the text, the names it mentions, and its values (by their types alone
 * when `byType`). Built by hand: a bulk write's every action is looked up here.
 */
function parseKey(
  input: string,
  names: readonly string[],
  values: readonly string[],
  byType: boolean,
  context: ParseContext,
): string {
  let key = part(input);
  for (const name of names) key += part(context.attrNames?.[name]);
  if (!byType) return `${key}|${JSON.stringify(only(context.attrVals, values))}`;
  for (const name of values) {
    const v = context.attrVals?.[name];
    if (v && typeof v === 'object') {
      const types = Object.keys(v);
      key += part(types.length === 1 ? types[0] : types.sort().join('+'));
    } else key += part(JSON.stringify(v ?? null));
  }
  return key;
}

/**
 * Remembers parses by the text and only the names and values it mentions, so the many writes that send
 * one expression with other figures share a parse. `byType(input)`: the parser looks at a value's type
 * and never at its content (dynalite's update parser; a condition without BETWEEN or attribute_type,
 * the only places the condition parser compares or reads values), so values are keyed by type alone and
 * put back into the remembered tree; otherwise they stay in the key. Without this, every conditional
 * write of other figures (a rollback's hundred thousand deletes) was parsed afresh.
 */
function rememberParses(parser: PegParser, byType: (input: string) => boolean): void {
  const parse = parser.parse.bind(parser);
  const remembered = new Map<string, RememberedParse & { slotted: boolean }>();
  // What each text mentions, found once: the same few texts arrive thousands of times.
  const mentions = new Map<string, { names: string[]; values: string[]; byType: boolean }>();
  parser.parse = (input, options) => {
    const context = options.context;
    let mentioned = mentions.get(input);
    if (!mentioned) {
      mentioned = {
        names: [...new Set(input.match(/#[0-9A-Za-z_]+/g) ?? [])],
        values: [...new Set(input.match(/:[0-9A-Za-z_]+/g) ?? [])],
        byType: byType(input),
      };
      if (mentions.size >= MAX_PARSES) mentions.clear();
      mentions.set(input, mentioned);
    }
    const { names: mentionedNames, values: mentionedValues } = mentioned;
    const key = parseKey(input, mentionedNames, mentionedValues, mentioned.byType, context);
    const hit = remembered.get(key);
    if (hit) {
      // The caller checks afterwards that every name and value was used, from what the parse deleted.
      for (const name of hit.usedNames) delete context.unusedAttrNames?.[name];
      for (const value of hit.usedValues) delete context.unusedAttrVals?.[value];
      return hit.slotted ? filled(hit.result, context.attrVals ?? {}) : cloneTree(hit.result);
    }
    const namesBefore = Object.keys(context.unusedAttrNames ?? {});
    const valuesBefore = Object.keys(context.unusedAttrVals ?? {});
    // A syntax error throws and is not remembered, so its message is built afresh each time.
    const result = parse(input, options);
    const usedValues = valuesBefore.filter((v) => !(v in (context.unusedAttrVals ?? {})));
    let kept: unknown;
    let slotted = false;
    if (mentioned.byType) {
      const slots = new Map<unknown, ValueSlot>();
      // Every value the text names, not only those this parse marked used: a condition sent with an update
      // finds its values already marked by the update's parse.
      for (const name of mentionedValues) {
        const v = context.attrVals?.[name];
        if (v && typeof v === 'object' && !slots.has(v)) slots.set(v, new ValueSlot(name));
      }
      // Only a parse that holds each named value as given can take other values later.
      const inTree = objectsIn(result, new Set());
      if ([...slots.keys()].every((v) => inTree.has(v))) {
        kept = withSlots(result, slots);
        slotted = true;
      }
    }
    if (!slotted) {
      if (mentioned.byType) return result;
      kept = cloneTree(result);
    }
    if (remembered.size >= MAX_PARSES) {
      const oldest = remembered.keys().next();
      if (!oldest.done) remembered.delete(oldest.value);
    }
    remembered.set(key, {
      result: kept,
      slotted,
      usedNames: namesBefore.filter((n) => !(n in (context.unusedAttrNames ?? {}))),
      usedValues,
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
    rememberParses(
      require(`./db/${name}`) as PegParser,
      name === 'updateParser'
        ? () => true
        : name === 'conditionParser'
          ? (input) => !/between|attribute_type/i.test(input)
          : () => false,
    );
  }
  (require('./validations') as { checkTypes: typeof checkTypes }).checkTypes = checkTypes;
  rememberKeyHashes(db);
  const create = db.create.bind(db);
  db.create = (options) => {
    const store = create(options);
    rememberTables(store.tableDb);
    return store;
  };
  const checksum = require('buffer-crc32') as { unsigned(input: string | Buffer): number };
  checksum.unsigned = (input) => crc32(input);
}
