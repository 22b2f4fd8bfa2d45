/**
 * TransactWriteItems for dynalite, which has no transactions, so code that writes many items in one request
 * runs locally as it does on DynamoDB. `Update`, `Put` and `Delete` actions are served (the product sends no
 * others): every action is validated, its item locked (as dynalite's own writes lock theirs) and read once,
 * and its condition checked against the item as it stands; if one fails, nothing is written and the answer
 * is DynamoDB's TransactionCanceledException with a reason per action. Every action's result is then made
 * (an update through dynalite's own UpdateItem, so it applies expressions as dynalite does) before any is
 * written, so an update that cannot be applied also leaves everything as it was; the items are written in
 * one batch, and their indexes' entries in one batch per index, before the locks are let go. A single-item
 * write to one of the items waits for the transaction; a read sees all of its items written or none.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

type Callback<T> = (err: (Error & { statusCode?: number; body?: unknown }) | null, value?: T) => void;

type Item = Record<string, unknown>;
type BatchOp = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };

/** A part of dynalite's store (a table's items, or an index's entries). */
interface SubDb {
  get(key: string, cb: Callback<Item>): void;
  put(key: string, value: unknown, cb: Callback<unknown>): void;
  del(key: string, cb: Callback<unknown>): void;
  batch(ops: BatchOp[], cb: Callback<unknown>): void;
  /** `lock`'s Lock: with many keys, `exec` runs once it holds them all; the function it is given releases them. */
  lock(keys: string | string[], exec: (release: (done: () => void) => () => void) => void): void;
}

interface Store {
  getTable(name: string, cb: Callback<TableDescription>): void;
  getItemDb(name: string): SubDb;
  getIndexDb(indexType: string, tableName: string, indexName: string): SubDb;
}

type TableDescription = Record<string, unknown>;

interface DynaliteDbModule {
  create(options: unknown): Store;
  createKey(key: unknown, table: TableDescription): string;
  validateKey(key: unknown, table: TableDescription): Error | null;
  validateItem(item: unknown, table: TableDescription): Error | null;
  checkConditional(data: UpdateData, item: Record<string, unknown> | undefined): Error | null;
  getIndexActions(
    indexes: unknown[],
    existing: Item | undefined,
    item: Item | null,
    table: TableDescription,
  ): { puts: { index: string; key: string; item: Item }[]; deletes: { index: string; key: string }[] };
}

interface UpdateData {
  TableName: string;
  /** An update's or a delete's; a put's key is in its item. */
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
  [field: string]: unknown;
}

const ACTIONS = ['Update', 'Put', 'Delete'] as const;
type ActionName = (typeof ACTIONS)[number];
const MODULES: Record<ActionName, string> = { Update: 'updateItem', Put: 'putItem', Delete: 'deleteItem' };

interface Validations {
  checkTypes(data: unknown, types: unknown): UpdateData;
  checkValidations(data: unknown, types: unknown, custom: unknown, store: Store): void;
}

const TARGET = 'DynamoDB_20120810.TransactWriteItems';
const MAX_ACTIONS = 100;

const dynaliteRequire = () => createRequire(createRequire(import.meta.url).resolve('dynalite'));

/** Starts dynalite through `start` and teaches the server it returns TransactWriteItems. */
export function withTransactWrites(start: () => Server): Server {
  const require = dynaliteRequire();
  const db = require('./db') as DynaliteDbModule;
  const create = db.create;
  let store: Store | undefined;
  db.create = (options) => {
    store = create.call(db, options);
    return store;
  };
  let server: Server;
  try {
    server = start();
  } finally {
    db.create = create;
  }
  if (!store) throw new Error('dynalite created no store');
  const served = store;
  const validations = require('./validations') as Validations;
  const kinds = Object.fromEntries(
    ACTIONS.map((name) => [
      name,
      {
        rules: require(`./validations/${MODULES[name]}`) as Rules,
        apply: require(`./actions/${MODULES[name]}`) as Apply,
      },
    ]),
  ) as Parts['kinds'];
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.headers['x-amz-target'] !== TARGET) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? 'application/x-amz-json-1.0').split(';')[0];
      const send = (body: unknown, status = 200) => {
        const text = JSON.stringify(body);
        res.statusCode = status;
        res.setHeader('x-amzn-RequestId', randomUUID());
        res.setHeader('x-amz-crc32', crc32(text));
        res.setHeader('Content-Type', contentType ?? 'application/x-amz-json-1.0');
        res.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
        res.end(text);
      };
      transactWrite(served, Buffer.concat(chunks).toString('utf8'), { db, validations, kinds }).then(
        (out) => send(out.body, out.status),
        (err: Error) =>
          send({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: err.message }, 500),
      );
    });
  });
  return server;
}

type Rules = { types: unknown; custom: unknown };
type Apply = (store: Store, data: UpdateData, cb: Callback<unknown>) => void;

interface Parts {
  db: DynaliteDbModule;
  validations: Validations;
  kinds: Record<ActionName, { rules: Rules; apply: Apply }>;
}

const validationError = (message: string) => ({
  status: 400,
  body: { __type: 'com.amazon.coral.validate#ValidationException', message },
});

const promised = <T>(run: (cb: Callback<T>) => void) =>
  new Promise<T | undefined>((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));

async function transactWrite(
  store: Store,
  text: string,
  parts: Parts,
): Promise<{ status: number; body: unknown }> {
  let request: { TransactItems?: Partial<Record<ActionName, unknown>>[] };
  try {
    request = JSON.parse(text) as typeof request;
  } catch {
    return { status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } };
  }
  const actions = request.TransactItems;
  if (!Array.isArray(actions) || actions.length === 0 || actions.length > MAX_ACTIONS)
    return validationError(`TransactItems must hold 1 to ${MAX_ACTIONS} actions`);
  const updates: { name: ActionName; data: UpdateData; key: string; apply: Apply }[] = [];
  const seen = new Set<string>();
  // Each description read is a fresh copy of it: one per table serves the whole request.
  const tables = new Map<string, TableDescription | { statusCode?: number; body?: unknown } | undefined>();
  for (const action of actions) {
    const name = ACTIONS.find((a) => action[a]);
    if (!name) return validationError('Only Update, Put and Delete actions are emulated locally');
    const { rules, apply } = parts.kinds[name];
    let data: UpdateData;
    try {
      data = parts.validations.checkTypes({ ...(action[name] as object) }, rules.types);
      parts.validations.checkValidations(data, rules.types, rules.custom, store);
    } catch (err) {
      const e = err as { statusCode?: number; body?: unknown };
      if (e.statusCode) return { status: e.statusCode, body: e.body };
      throw err;
    }
    if (!tables.has(data.TableName))
      tables.set(
        data.TableName,
        await promised<TableDescription>((cb) => store.getTable(data.TableName, cb)).catch(
          (err: { statusCode?: number; body?: unknown }) => {
            if (err.statusCode) return err;
            throw err;
          },
        ),
      );
    const table = tables.get(data.TableName);
    if (!table || 'statusCode' in table) {
      const e = table as { statusCode?: number; body?: unknown } | undefined;
      return { status: e?.statusCode ?? 400, body: e?.body };
    }
    const keyOf = data.Key ?? data.Item;
    const invalid = data.Key
      ? parts.db.validateKey(data.Key, table)
      : parts.db.validateItem(data.Item, table);
    if (invalid) return validationError(invalid.message);
    const itemKey = parts.db.createKey(keyOf, table);
    const key = `${data.TableName}\u0000${itemKey}`;
    if (seen.has(key))
      return validationError('Transaction request cannot include multiple operations on one item');
    seen.add(key);
    updates.push({ name, data, key: itemKey, apply });
  }
  const releases: (() => void)[] = [];
  try {
    // Each table's items locked at once (dynalite's lock then waits for all of them, in the order asked),
    // tables in one order, so two transactions never hold what the other waits for.
    const byTable = new Map<string, string[]>();
    for (const u of updates) byTable.set(u.data.TableName, [...(byTable.get(u.data.TableName) ?? []), u.key]);
    for (const name of [...byTable.keys()].sort()) {
      const keysOfTable = byTable.get(name) ?? [];
      releases.push(
        await new Promise<() => void>((resolve) =>
          store.getItemDb(name).lock(keysOfTable, (release) => resolve(release(() => undefined))),
        ),
      );
    }
    const items: (Item | undefined)[] = [];
    for (const u of updates)
      items.push(
        await promised<Item>((cb) => store.getItemDb(u.data.TableName).get(u.key, cb)).catch((err: Error) => {
          if (err.name === 'NotFoundError') return undefined;
          throw err;
        }),
      );
    const reasons = updates.map((u, i) => {
      const failed = parts.db.checkConditional(u.data, items[i]);
      return failed ? { Code: 'ConditionalCheckFailed', Message: failed.message } : { Code: 'None' };
    });
    if (reasons.some((r) => r.Code !== 'None'))
      return {
        status: 400,
        body: {
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          CancellationReasons: reasons,
        },
      };
    const staged = new Staged();
    for (const [i, u] of updates.entries()) {
      const table = tables.get(u.data.TableName) as TableDescription;
      if (u.name !== 'Update') {
        // A put or a delete replaces the item whole: its index entries and itself, as dynalite's own make them.
        const item = u.name === 'Put' ? (u.data.Item ?? null) : null;
        staged.indexes(store, table, items[i], item, parts.db);
        const itemDb = store.getItemDb(u.data.TableName);
        staged.add(
          itemDb,
          item ? { type: 'put', key: u.key, value: item } : { type: 'del', key: u.key },
          true,
        );
        continue;
      }
      const stage = staged.store(store, table, u.key, items[i]);
      const made = await promised((cb) => u.apply(stage, u.data, cb)).then(
        () => undefined,
        (err: { statusCode?: number; body?: unknown }) => {
          if (err.statusCode) return { status: err.statusCode, body: err.body };
          throw err;
        },
      );
      if (made) return made;
    }
    await staged.write();
    return { status: 200, body: {} };
  } finally {
    for (const release of releases) release();
  }
}

/**
 * The writes a transaction's actions make, held back until every one of them has been made: a store
 * that answers each action's item as the transaction read it, and keeps what is written to it.
 */
class Staged {
  readonly #ops = new Map<SubDb, BatchOp[]>();
  readonly #items = new Set<SubDb>();

  add(db: SubDb, op: BatchOp, isItems = false): void {
    if (isItems) this.#items.add(db);
    const list = this.#ops.get(db);
    if (list) list.push(op);
    else this.#ops.set(db, [op]);
  }

  /** The index entries an item's change makes (dynalite's updateIndexes, held back). */
  indexes(
    store: Store,
    table: TableDescription,
    existing: Item | undefined,
    item: Item | null,
    db: DynaliteDbModule,
  ): void {
    for (const indexType of ['Local', 'Global']) {
      const indexes = table[`${indexType}SecondaryIndexes`] as unknown[] | undefined;
      if (!indexes?.length) continue;
      const actions = db.getIndexActions(indexes, existing, item, table);
      const indexDb = (index: string) => store.getIndexDb(indexType, String(table.TableName), index);
      for (const d of actions.deletes) this.add(indexDb(d.index), { type: 'del', key: d.key });
      for (const p of actions.puts) this.add(indexDb(p.index), { type: 'put', key: p.key, value: p.item });
    }
  }

  #into(db: SubDb): SubDb {
    const ops = (op: BatchOp) => this.add(db, op);
    return {
      get: (key, cb) => db.get(key, cb),
      put: (key, value, cb) => {
        ops({ type: 'put', key, value });
        cb(null);
      },
      del: (key, cb) => {
        ops({ type: 'del', key });
        cb(null);
      },
      batch: (list, cb) => {
        for (const op of list) ops(op);
        cb(null);
      },
      // The transaction holds the item's lock already.
      lock: (_keys, exec) => exec((done) => done),
    };
  }

  /** The store one action is made against: its table as read, its item as read. */
  store(store: Store, table: TableDescription, key: string, item: Item | undefined): Store {
    return Object.assign(Object.create(store) as Store, {
      getTable: (_name: string, cb: Callback<TableDescription>) => cb(null, table),
      getItemDb: (name: string) => {
        const itemDb = store.getItemDb(name);
        this.#items.add(itemDb);
        const staging = this.#into(itemDb);
        return {
          ...staging,
          get: (wanted: string, cb: Callback<Item>) => {
            if (wanted !== key) return itemDb.get(wanted, cb);
            if (item) return cb(null, item);
            const missing = new Error('NotFound') as Error & { name: string };
            missing.name = 'NotFoundError';
            cb(missing);
          },
        };
      },
      getIndexDb: (indexType: string, tableName: string, indexName: string) =>
        this.#into(store.getIndexDb(indexType, tableName, indexName)),
    });
  }

  /** The indexes' entries first, then the items, as dynalite's own writes order them. */
  async write(): Promise<void> {
    const order = [...this.#ops.keys()].sort(
      (a, b) => Number(this.#items.has(a)) - Number(this.#items.has(b)),
    );
    for (const db of order) {
      const ops = this.#ops.get(db) ?? [];
      if (ops.length > 0) await promised((cb) => db.batch(ops, cb));
    }
  }
}
