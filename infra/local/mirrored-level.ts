/**
 * The store under the local DynamoDB: every entry held in memory for reading, every write made on disk
 * first, so the data survives restarts as before. Reading through LevelDB cost a round trip to libuv's
 * thread pool per batch of entries plus a stream per query: about a third of the emulator's time on a
 * list of sites. The whole table of a local stack (a few MB) fits in memory, and is read from the LevelDB
 * files when the store opens, so a state folder written before works unchanged.
 */

type Encoded = string;

interface PutOp {
  type: 'put';
  key: Encoded;
  value: Encoded;
}
interface DelOp {
  type: 'del';
  key: Encoded;
}
type Op = PutOp | DelOp;

interface LevelOptions {
  valueEncoding?: string;
  keyEncoding?: string;
}

interface DiskLevel {
  open(): Promise<void>;
  close(): Promise<void>;
  batch(ops: Op[]): Promise<void>;
  clear(options: Record<string, unknown>): Promise<void>;
  iterator(): AsyncIterable<[Encoded, Encoded]>;
}

/** The protected part of memory-level's MemoryLevel that the mirror builds on. */
export interface MemoryStore {
  _open(options: unknown): Promise<void>;
  _close(): Promise<void>;
  _put(key: Encoded, value: Encoded, options: unknown): Promise<void>;
  _del(key: Encoded, options: unknown): Promise<void>;
  _batch(ops: Op[], options: unknown): Promise<void>;
  _clear(options: Record<string, unknown>): Promise<void>;
}

export type MemoryStoreClass = new (options: LevelOptions & { storeEncoding: 'utf8' }) => MemoryStore;
export type DiskLevelClass = new (location: string, options: LevelOptions) => DiskLevel;

/** A class with LevelDB's constructor (`new Level(path, options)`) that reads from memory. */
export function mirroredLevelClass(MemoryLevel: MemoryStoreClass, ClassicLevel: DiskLevelClass) {
  return class MirroredLevel extends MemoryLevel {
    readonly #disk: DiskLevel;
    #queue: { ops: Op[]; done: () => void; failed: (err: unknown) => void }[] = [];
    #writing: Promise<void> | undefined;
    #draining = false;

    constructor(location: string, options: LevelOptions = {}) {
      // Strings in memory as on disk: entries move between the two without being decoded.
      super({ ...options, storeEncoding: 'utf8' });
      this.#disk = new ClassicLevel(location, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    }

    override async _open(options: unknown): Promise<void> {
      await super._open(options);
      await this.#disk.open();
      const entries: Op[] = [];
      for await (const [key, value] of this.#disk.iterator()) entries.push({ type: 'put', key, value });
      await super._batch(entries, {});
    }

    override async _close(): Promise<void> {
      await this.#writing;
      await this.#disk.close();
      await super._close();
    }

    // Disk first, then memory: a write that fails on disk is not seen by any reader, and a reader sees a
    // write only once it will survive a restart.
    override async _put(key: Encoded, value: Encoded, options: unknown): Promise<void> {
      await this.#persist([{ type: 'put', key, value }]);
      await super._put(key, value, options);
    }

    override async _del(key: Encoded, options: unknown): Promise<void> {
      await this.#persist([{ type: 'del', key }]);
      await super._del(key, options);
    }

    override async _batch(ops: Op[], options: unknown): Promise<void> {
      await this.#persist(ops.map((op) => (op.type === 'put' ? { ...op } : { type: 'del', key: op.key })));
      await super._batch(ops, options);
    }

    override async _clear(options: Record<string, unknown>): Promise<void> {
      await this.#writing;
      await this.#disk.clear(options);
      await super._clear(options);
    }

    /**
     * Writes reach the disk in the order they were made, several at a time in one LevelDB batch: two
     * writes to one key issued together would otherwise race on the thread pool.
     */
    #persist(ops: Op[]): Promise<void> {
      return new Promise((done, failed) => {
        this.#queue.push({ ops, done, failed });
        if (!this.#draining) {
          this.#draining = true;
          this.#writing = this.#drain();
        }
      });
    }

    async #drain(): Promise<void> {
      try {
        while (this.#queue.length > 0) {
          const waiting = this.#queue;
          this.#queue = [];
          try {
            await this.#disk.batch(waiting.flatMap((w) => w.ops));
            for (const w of waiting) w.done();
          } catch (err) {
            for (const w of waiting) w.failed(err);
          }
        }
      } finally {
        // Cleared in the same step as the loop's last check, so a write queued after it starts a new drain.
        this.#draining = false;
      }
    }
  };
}
