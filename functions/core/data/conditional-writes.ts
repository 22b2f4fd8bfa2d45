import { setTimeout as sleep } from 'node:timers/promises';
import { conflict } from '../lib/errors.ts';
import {
  type CollectionRef,
  getRaw,
  putItemIf,
  REVISION_ATTRIBUTE,
  type StoredItem,
  stripKeys,
} from './item-repository.ts';

/** Enough for every one of a few dozen writers racing on one item to get its turn. */
const MAX_ATTEMPTS = 60;

export interface ItemChange {
  before: StoredItem;
  /** As written; `before` itself when the change asked for no write. */
  after: StoredItem;
  written: boolean;
}

/**
 * Changes one item by read, change, write on condition that its revision is still the one read, and
 * again from a fresh read when another write came in between. So two requests changing different fields
 * both land, and two adding to a list both stay: no write is ever lost, at worst a caller is told to
 * try again (409) after a long contention. `change` sees the stored item and answers the whole item to
 * write, or undefined to write nothing; it may run more than once, so it must not write anything itself.
 * Answers undefined when there is no such item.
 */
export async function changeItem(
  ref: CollectionRef,
  id: string,
  change: (current: StoredItem) => StoredItem | undefined | Promise<StoredItem | undefined>,
): Promise<ItemChange | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const raw = await getRaw(ref.pk, id);
    if (!raw) return undefined;
    const before = stripKeys(raw);
    const next = await change(before);
    if (!next) return { before, after: before, written: false };
    const revision = raw[REVISION_ATTRIBUTE];
    const written = await putItemIf(
      ref,
      { ...next, _id: before._id },
      revision === undefined
        ? {
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#rev)',
            ExpressionAttributeNames: { '#rev': REVISION_ATTRIBUTE },
          }
        : {
            ConditionExpression: '#rev = :rev',
            ExpressionAttributeNames: { '#rev': REVISION_ATTRIBUTE },
            ExpressionAttributeValues: { ':rev': revision },
          },
    );
    if (written) return { before, after: { ...next, _id: before._id }, written: true };
    // Spread the retries so racing writers do not meet again on the next round.
    await sleep(Math.random() * Math.min(250, 5 * 2 ** Math.min(attempt, 6)));
  }
  throw conflict('This record is being changed by someone else; please try again.');
}
