import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { checkTypes } from '../../infra/local/dynalite-check-types.ts';

type CheckTypes = (data: unknown, types: unknown) => unknown;

const dynaliteRequire = createRequire(createRequire(import.meta.url).resolve('dynalite'));
/** dynalite's own checkTypes, from a fresh copy of its module (the emulator's copy has ours in its place). */
function dynalitesCheckTypes(): CheckTypes {
  const path = dynaliteRequire.resolve('./validations');
  const cached = dynaliteRequire.cache[path];
  delete dynaliteRequire.cache[path];
  try {
    return (dynaliteRequire('./validations') as { checkTypes: CheckTypes }).checkTypes;
  } finally {
    if (cached) dynaliteRequire.cache[path] = cached;
  }
}

const theirs = dynalitesCheckTypes();
const actions = ['putItem', 'updateItem', 'deleteItem', 'query', 'batchWriteItem', 'batchGetItem', 'getItem'];
const typesOf = (action: string) => (dynaliteRequire(`./validations/${action}`) as { types: unknown }).types;

/** What a check answers: the data it makes, or the error a client would be sent. */
function outcome(check: CheckTypes, data: unknown, types: unknown) {
  const input = structuredClone(data);
  try {
    return { out: check(input, types), input };
  } catch (err) {
    const e = err as Error & { statusCode?: number; body?: unknown };
    return { error: e.message, statusCode: e.statusCode, body: e.body, input };
  }
}

/** A value of any JSON shape, biased towards what requests hold. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth <= 0 || pick < 0.35) {
    const leaves: unknown[] = [
      'x',
      'dGVzdA==',
      'abc',
      '',
      'true',
      'no',
      'maybe',
      1,
      2.5,
      0,
      true,
      false,
      null,
      [],
      {},
    ];
    return leaves[Math.floor(random() * leaves.length)];
  }
  if (pick < 0.55)
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomValue(random, depth - 1));
  const keys = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M', 'pk', 'sk', 'other', '__proto__'];
  const out: Record<string, unknown> = {};
  const n = 1 + Math.floor(random() * 3);
  for (let i = 0; i < n; i++)
    out[keys[Math.floor(random() * keys.length)] as string] = randomValue(random, depth - 1);
  return out;
}

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('the local table checks request types as dynalite does', () => {
  const item = {
    pk: { S: 'company#1' },
    sk: { S: '2024-01' },
    n: { N: '12.5' },
    flag: { BOOL: true },
    gone: { NULL: true },
    bin: { B: 'dGVzdA==' },
    tags: { SS: ['a', 'b'] },
    figures: { NS: ['1', '2'] },
    blobs: { BS: ['dGVzdA=='] },
    list: { L: [{ S: 'a' }, { M: { x: { N: '1' } } }] },
    map: { M: { nested: { L: [{ BOOL: false }] } } },
  };
  const cases: [string, Record<string, unknown>][] = [
    [
      'a put of every kind of value',
      { TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    ],
    ['an unknown field, dropped', { TableName: 't', Item: item, Unknown: 1, ReturnValues: null }],
    ['a number where a string goes', { TableName: 't', Item: { pk: { S: 5 } } }],
    ['a fraction where a string goes', { TableName: 't', Item: { pk: { S: 5.5 } } }],
    ['a boolean given as text', { TableName: 't', Item: { pk: { BOOL: 'yes' } } }],
    ['a boolean given as bad text', { TableName: 't', Item: { pk: { BOOL: 'maybe' } } }],
    ['a list where a map goes', { TableName: 't', Item: [] }],
    ['bad base64', { TableName: 't', Item: { b: { B: 'abc' } } }],
    ['base64 of the wrong end', { TableName: 't', Item: { b: { B: 'dGVzdB==' } } }],
    ['a string where a value goes', { TableName: 't', Item: { pk: 'x' } }],
    ['a list of values where a value goes', { TableName: 't', Item: { pk: [{ S: 'x' }] } }],
    ['a map where a set goes', { TableName: 't', Item: { s: { SS: { a: 'b' } } } }],
    ['a prototype key', JSON.parse('{"TableName":"t","Item":{"__proto__":{"S":"x"},"a":{"S":"b"}}}')],
  ];
  for (const [name, data] of cases)
    it(`answers ${name} the same`, () => {
      for (const action of ['putItem', 'updateItem', 'deleteItem']) {
        const types = typesOf(action);
        expect(outcome(checkTypes as CheckTypes, data, types)).toEqual(outcome(theirs, data, types));
      }
    });

  it('answers the same for thousands of random requests of every action', () => {
    const random = seeded(15);
    const fields = [
      'TableName',
      'Item',
      'Key',
      'ExpressionAttributeValues',
      'ExpressionAttributeNames',
      'RequestItems',
      'Limit',
      'ConsistentRead',
      'ExclusiveStartKey',
      'KeyConditions',
      'AttributeUpdates',
    ];
    let errors = 0;
    for (let i = 0; i < 5000; i++) {
      const data: Record<string, unknown> = {};
      for (const f of fields) if (random() < 0.4) data[f] = randomValue(random, 4);
      const types = typesOf(actions[i % actions.length] as string);
      const ours = outcome(checkTypes as CheckTypes, data, types);
      expect(ours).toEqual(outcome(theirs, data, types));
      if ('error' in ours) errors++;
    }
    // Both kinds of answer were compared, not only refusals.
    expect(errors).toBeGreaterThan(500);
    expect(errors).toBeLessThan(4900);
  });
});
