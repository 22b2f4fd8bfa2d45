import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId } from '../../functions/core/lib/ids.ts';
import { resourceSchema, subResourceSchema } from '../../shared/system/resource-schemas.ts';
import '../../shared/system/resource-schemas/all.ts';
import { findResource, RESOURCES } from '../../shared/system/resources.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import type { TestResponse } from '../support/http-events.ts';
import {
  type AccessFixture,
  type CompanyWorld,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * Bad input on every declared route, sent by a caller who passes the route's permission and aimed at real
 * items: whatever the body or query, the answer is the caller's mistake (4xx with a message it can show),
 * never a failure of ours (500) that hides what was wrong. Past the fixed bad inputs, each route's own
 * refusals say which fields it reads and what they want; the test mends a body until the route takes it,
 * then makes one field bad at a time, so bad values reach the operation's logic and not just its schema.
 */

const WRITES = ['POST', 'PUT', 'PATCH'];
/** Field names most bodies use, for routes whose schema is not a declared resource's. */
const COMMON_FIELDS: Record<string, Kind> = {
  name: 'string',
  email: 'string',
  _id: 'string',
  ids: 'array',
  date: 'string',
  startDate: 'string',
  endDate: 'string',
  value: 'number',
  companyId: 'string',
  accountId: 'string',
  assetId: 'string',
  entityId: 'string',
  assetIds: 'array',
  type: 'string',
  status: 'string',
  permissions: 'array',
  fileName: 'string',
  contentType: 'string',
  code: 'string',
  enabled: 'boolean',
  items: 'array',
  settings: 'object',
};
const HUGE = 'x'.repeat(100 * 1024);
const MISSING_ID = 'ffffffffffff0000ffffffff';
const MALFORMED_IDS = ['../x', '', MISSING_ID, 'i'.repeat(2000)];
/** Deeper than the database stores a document. */
const DEEP = Array.from({ length: 40 }).reduce<Record<string, unknown>>((inner) => ({ a: inner }), { a: 1 });

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'other';

/** What a field of a schema holds once optional, nullable and default wrappers are taken off. */
function kindOf(schema: z.ZodType): Kind {
  let s: z.ZodType = schema;
  for (let i = 0; i < 10; i++) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodDefault || s instanceof z.ZodPrefault) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else break;
  }
  if (s instanceof z.ZodString || s instanceof z.ZodEnum || s instanceof z.ZodLiteral) return 'string';
  if (s instanceof z.ZodNumber) return 'number';
  if (s instanceof z.ZodBoolean) return 'boolean';
  if (s instanceof z.ZodArray) return 'array';
  if (s instanceof z.ZodObject || s instanceof z.ZodRecord) return 'object';
  return 'other';
}

/** The fields of the route's body: its resource's schema where the route is a generic one, else common names. */
function fieldsOf(route: HttpRoute): Record<string, Kind> {
  if (route.resource && route.op.startsWith('generic.')) {
    const schema = route.subResource
      ? subResourceSchema(route.resource, route.subResource)
      : resourceSchema(route.resource);
    const out: Record<string, Kind> = {};
    for (const [k, v] of Object.entries(schema.shape)) out[k] = kindOf(v as z.ZodType);
    return { ...out, _id: 'string', ids: 'array' };
  }
  return COMMON_FIELDS;
}

const WRONG: Record<Kind, unknown> = {
  string: 12345,
  number: { n: 1 },
  boolean: [true],
  array: 'not a list',
  object: 7,
  other: [[{}]],
};

const isIdField = (k: string) => k === '_id' || /Ids?$/.test(k) || k === 'ids';

/** The bad bodies for a route, each with a label that names it in a failure. */
function badBodies(route: HttpRoute): [string, unknown][] {
  const fields = fieldsOf(route);
  const entries = Object.entries(fields);
  const wrongTypes = Object.fromEntries(entries.map(([k, kind]) => [k, WRONG[kind]]));
  // Under the 1 MB body limit, so the operation (not the body parser) meets the long strings.
  const huge = Object.fromEntries(
    entries
      .filter(([, kind]) => kind === 'string')
      .slice(0, 8)
      .map(([k]) => [k, HUGE]),
  );
  const ids = (bad: string) =>
    Object.fromEntries(
      entries
        .filter(([k]) => isIdField(k))
        .map(([k, kind]) => [k, kind === 'array' || k === 'ids' ? [bad] : bad]),
    );
  return [
    ['a JSON array', [1, 'a', null]],
    ['a JSON string', 'text'],
    ['null', null],
    ['a number', 42],
    ['{}', {}],
    ['wrong types', wrongTypes],
    ['100 kB strings', huge],
    ...MALFORMED_IDS.map((bad): [string, unknown] => [`ids ${JSON.stringify(bad)}`, ids(bad)]),
  ];
}

const GARBAGE_QUERIES = [
  'limit=-1&skip=abc&page=-3&pageSize=1e9',
  '$sort=;drop&sort=;drop&order=sideways&$limit=-5&$skip=-1',
  `q=${'%F0%9F%92%A5'.repeat(500)}&search=${'a'.repeat(4000)}&name=${'n'.repeat(4000)}&cursor=${'c'.repeat(4000)}`,
  'filter[__proto__]=x&__proto__[polluted]=1&constructor[prototype][polluted]=1&filter[status]=%00',
  'from=not-a-date&to=2025-13-45&date=yesterday&year=abc&month=99&ids=..%2Fx,&assetId=..%2Fx&accountId=',
  ['assetId', 'accountId', 'entityId', 'companyId', 'supplierId', 'status', 'type', 'userSub']
    .map((k) => `${k}=${'k'.repeat(3000)}`)
    .join('&'),
];

let fx: AccessFixture;
let world: DemoWorld;
let admin: DemoUser;

/** The real item (or company, or sub-item) a path parameter names, for the staff admin in Demo Estates. */
function realValue(route: HttpRoute, company: CompanyWorld, param: string): string {
  const resource = route.resource
    ? findResource(route.resource)
    : findResource(route.path.split('/')[1] ?? '');
  if (route.companyParam === param) return company.companyId;
  if (route.item?.param === param) {
    if (!route.item.resource) return company.probeItems[route.item.type];
    const name = route.path.startsWith('/recommendations/global/')
      ? 'recommendations/global'
      : route.item.resource;
    return company.probes.get(name) ?? newId();
  }
  if (param === 'userSub') return admin.sub;
  if (param === 'id' && resource?.name === 'companies') return company.companyId;
  // Another member, so a change that went through leaves the caller's own access as it was.
  if (param === 'id' && resource?.name === 'users') return world.user('user@demo.test').sub;
  if (param === 'id' && resource?.scope === 'global') return globalProbes.get(resource.name) ?? newId();
  if (param === 'subId' && resource) {
    const sub = route.subResource ?? route.path.split('/')[3];
    return company.subProbes.get(`${resource.name}/${sub}`) ?? newId();
  }
  if (param === 'assetId' || param === 'assetIds') return company.probeItems.assets;
  if (param === 'accountId') return company.probeItems.accounts;
  if (param === 'entityId') return company.probeItems.entities;
  if (param === 'id' && route.path.startsWith('/kiosks/')) return company.kioskId;
  if (param === 'id' && resource?.itemType) return company.probeItems[resource.itemType];
  if (param === 'id' && resource) return company.probes.get(resource.name) ?? newId();
  return company.probes.get(`${param.replace(/Id$/, '')}s`) ?? newId();
}

function pathFor(route: HttpRoute, override?: { param: string; value: string }): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(override?.param === name ? override.value : realValue(route, world.demo, name)),
  );
}

/** The parameter that names the route's main item: the item check's, the company's, else the first. */
function mainParam(route: HttpRoute): string | undefined {
  return route.item?.param ?? route.companyParam ?? /\{(\w+)\}/.exec(route.path)?.[1];
}

interface Call {
  route: HttpRoute;
  label: string;
  path: string;
  body?: unknown;
  /** A route that only a kiosk calls is called with the demo company's kiosk key. */
  kiosk?: boolean;
  /** A body that no form of the route can accept: a 2xx would be input silently dropped or stored wrong. */
  mustRefuse?: boolean;
}

/** What is wrong with an answer to bad input, or undefined if it is a proper refusal (or success). */
function problem(call: Call, res: TestResponse): string | undefined {
  if (res.status >= 500) return `${res.status} ${String(res.body.code ?? '')}`;
  if (call.mustRefuse && res.status < 400) return `${res.status}: accepted`;
  if (res.status === 400) {
    if (typeof res.body.message !== 'string' || res.body.message === '') return '400 without a message';
    const fm = res.body.formMessages;
    if (fm !== undefined) {
      const ok =
        fm !== null &&
        typeof fm === 'object' &&
        !Array.isArray(fm) &&
        Object.values(fm).every((v) => typeof v === 'string' && v !== '');
      if (!ok) return `400 with formMessages ${JSON.stringify(fm).slice(0, 200)}`;
    }
  }
  return undefined;
}

const seededIds = () =>
  new Set(
    [world.demo, world.northwind].flatMap((c) => [
      c.companyId,
      ...Object.values(c.probeItems),
      ...c.probes.values(),
      ...c.subProbes.values(),
    ]),
  );

/** A write that went through on a seeded item is undone, so every later call meets the items as seeded. */
async function undoWrite(route: HttpRoute, path: string, res: TestResponse): Promise<void> {
  if (route.method === 'GET' || res.status >= 300) return;
  const seeded = seededIds();
  for (const id of path.split(/[/?]/)) if (seeded.has(id)) await world.reseed(id);
}

/**
 * Sends calls, a few routes at a time (each route's calls in order, so one item never meets two writes at
 * once), and collects every answer that is not a proper refusal. A write that went through on a seeded item
 * is undone, so every later call meets the items as seeded.
 */
async function sweep(calls: Call[], width = 4): Promise<Sweep> {
  const byRoute = new Map<HttpRoute, Call[]>();
  for (const c of calls) byRoute.set(c.route, [...(byRoute.get(c.route) ?? []), c]);
  const wrong: string[] = [];
  const statuses = new Map<number, number>();
  const answers: [Call, TestResponse][] = [];
  await pool([...byRoute.values()], width, async (group) => {
    for (const call of group) {
      const { method } = call.route;
      const res = await fx.api({
        method,
        path: call.path,
        body: call.body,
        ...(call.kiosk
          ? { headers: { 'x-kiosk-key': `${world.demo.kioskId}:probe-secret` } }
          : { token: admin.token }),
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      answers.push([call, res]);
      const p = problem(call, res);
      if (p) wrong.push(`${method} ${call.route.path} [${call.label}] ${call.path.slice(0, 120)}: ${p}`);
      await undoWrite(call.route, call.path, res);
    }
  });
  return { wrong, statuses, answers };
}

interface Sweep {
  wrong: string[];
  statuses: Map<number, number>;
  answers: [Call, TestResponse][];
}

/** The type a field wants, from the wording the API uses for a value of the wrong type. */
const KIND_WORDS: Record<string, Kind> = {
  'Must be text': 'string',
  'Must be a number': 'number',
  'Must be a whole number': 'number',
  'Must be true or false': 'boolean',
  'Must be a list': 'array',
  'Must be an object': 'object',
};

/**
 * The body fields each route's refusals named, with the type they asked for where they said (else
 * `other`): a route whose schema the test cannot see still tells which fields it reads.
 */
function learnFields(answers: [Call, TestResponse][], into: Map<HttpRoute, Map<string, Kind>>): void {
  for (const [call, res] of answers) {
    const fm = res.body.formMessages;
    if (res.status !== 400 || !fm || typeof fm !== 'object') continue;
    const fields = into.get(call.route) ?? new Map<string, Kind>();
    for (const [path, message] of Object.entries(fm)) {
      const field = path.split('.')[0] ?? '';
      if (!field || field === '_form' || /^\d+$/.test(field)) continue;
      const kind = path === field ? KIND_WORDS[String(message)] : undefined;
      if (kind) fields.set(field, kind);
      else if (!fields.has(field)) fields.set(field, 'other');
    }
    into.set(call.route, fields);
  }
}

/**
 * Bodies that pass the type checks the route announced but carry bad values: text fields long, empty, a
 * path or an id of nothing; numbers negative or huge; lists holding the bad text. These reach the
 * operation's own logic, where a missed check is a 500.
 */
function deepBodies(fields: Map<string, Kind>): [string, unknown][] {
  const variants: [string, string, number][] = [
    ['100 kB', HUGE, 1e308],
    ['"../x"', '../x', -1],
    ['""', '', 0],
    ['missing id', MISSING_ID, 0.5],
    ['spaces', '   ', -0.000001],
  ];
  return variants.map(([label, text, num]) => {
    let long = 0;
    const body: Record<string, unknown> = {};
    for (const [field, kind] of fields) {
      // At most 8 long values, under the 1 MB body limit.
      const t = text === HUGE && long++ >= 8 ? 'x' : text;
      if (kind === 'number') body[field] = num;
      else if (kind === 'boolean') body[field] = true;
      else if (kind === 'array') body[field] = [t];
      else if (kind === 'object') body[field] = { [field]: t };
      else body[field] = t;
    }
    return [`learned fields ${label}`, body];
  });
}

/** A value the wording of a refusal asks for: an option it lists, an e-mail, an id, a date, else one of the kind. */
function repairFor(message: string, current: unknown): unknown {
  if (/true or false/i.test(message)) return true;
  const option =
    /expected one of "([^"]+)"/.exec(message)?.[1] ??
    /one of ([\w-]+)/.exec(message)?.[1] ??
    /^Must be ([\w-]+) or [\w-]+$/.exec(message)?.[1];
  if (option !== undefined) return option;
  if (/cannot be changed|not a field|not changed here/i.test(message)) return REMOVE;
  // A CSV import names its columns: a header of them and a row of values none of them takes.
  const columns = /The columns are: (.+)\.$/.exec(message)?.[1]?.split(', ');
  if (columns)
    return `${columns.join(',')}\n${columns.map((_c, i) => ['../x', '"', '-1e400', ''][i % 4]).join(',')}\n`;
  if (/expected record|expected object/i.test(message)) return {};
  if (/e-?mail/i.test(message)) return 'probe@example.test';
  if (/valid id/i.test(message)) return world.demo.probeItems.assets;
  if (/YYYY-MM-DD|date/i.test(message)) return '2025-01-01';
  if (/url|link|https?/i.test(message)) return 'https://example.test/';
  if (/postcode/i.test(message)) return 'SW1A 1AA';
  if (/image/i.test(message) && !/pdf/i.test(message)) return 'image/png';
  if (/pdf|content type/i.test(message)) return 'application/pdf';
  const kind = KIND_WORDS[message];
  const bound = /(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)/.exec(message);
  if (bound && /number/i.test(message)) return Number(bound[2]) + (bound[1] === '>' ? 1 : 0);
  if (kind === 'number' || /number|whole|greater/i.test(message)) return 1;
  if (kind === 'array') return [];
  if (kind === 'boolean') return true;
  if (kind === 'object') return {};
  if (kind === 'string') return 'Probe';
  const chars = /(?:<=|exactly) ?(\d+) characters/.exec(message)?.[1];
  if (chars) return 'A'.repeat(Math.min(Number(chars), 5));
  if (Array.isArray(current)) return [...current, 'Probe'];
  if (/at least|too small/i.test(message)) return 'Probe value';
  // Text was tried and said to be missing: a number next.
  if (current === 'Probe' && /required/i.test(message)) return 1;
  return typeof current === 'string' && current !== 'x' ? current : 'Probe';
}

/** A field the refusal says this call does not take. */
const REMOVE = Symbol('remove');

/** Sets `a.0.b` in a body, making the lists and objects on the way. */
function setPath(body: Record<string, unknown>, path: string[], value: unknown): void {
  let at: Record<string, unknown> | unknown[] = body;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const last = i === path.length - 1;
    const slot = (at as Record<string, unknown>)[key];
    if (last) (at as Record<string, unknown>)[key] = value;
    else {
      const next = /^\d+$/.test(path[i + 1] as string) ? [] : {};
      const child = slot && typeof slot === 'object' ? slot : next;
      (at as Record<string, unknown>)[key] = child;
      at = child as Record<string, unknown>;
    }
  }
}

/** Runs `fn` over the items, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/**
 * A body each route takes past its checks, found by mending what its refusals name (an option it lists,
 * an e-mail, an id, a date) a few times over: a route that still refuses keeps its last attempt.
 */
async function passingBodies(
  learned: Map<HttpRoute, Map<string, Kind>>,
): Promise<Map<HttpRoute, Record<string, unknown>>> {
  const out = new Map<HttpRoute, Record<string, unknown>>();
  await pool([...learned], 4, async ([route, fields]) => {
    const body: Record<string, unknown> = {};
    for (const [f, kind] of fields) body[f] = repairFor(kind === 'other' ? '' : `Must be ${kind}`, 'x');
    for (let round = 0; round < 6; round++) {
      const res = await fx.api({ method: route.method, path: pathFor(route), token: admin.token, body });
      await undoWrite(route, pathFor(route), res);
      const fm = res.body.formMessages;
      if (res.status !== 400 || !fm || typeof fm !== 'object') break;
      for (const [path, message] of Object.entries(fm)) {
        if (path === '_form') continue;
        const segments = path.split('.');
        const current = segments.reduce<unknown>(
          (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
          body,
        );
        const value = repairFor(String(message), current);
        if (value === REMOVE && segments.length === 1) delete body[path];
        else setPath(body, segments, value);
      }
    }
    out.set(route, body);
  });
  return out;
}

/** The bad values for a field holding `value`. */
function badValuesFor(value: unknown): unknown[] {
  const bad: unknown[] =
    typeof value === 'string'
      ? [
          HUGE,
          'y'.repeat(420 * 1024),
          '../x',
          '',
          MISSING_ID,
          'nul\u0000 and a lone \ud800 half',
          '2025-02-30',
          '2025-13',
        ]
      : typeof value === 'number'
        ? [-1, 1e308, 0.5, 1e-200]
        : Array.isArray(value)
          ? [[], [...value, '../x'], [null], Array.from({ length: 2000 }, () => value[0] ?? 'x')]
          : value && typeof value === 'object'
            ? [{}, DEEP]
            : [];
  return [...bad, null];
}

const labelOf = (v: unknown) =>
  typeof v === 'string'
    ? JSON.stringify(v.slice(0, 20))
    : Array.isArray(v)
      ? `${v.length} entries`
      : v === DEEP
        ? 'nested 40 deep'
        : JSON.stringify(v);

/** Every field of a body by its path, nested objects' and first list entries' fields too (3 deep). */
function fieldPaths(value: unknown, path: string[] = []): [string[], unknown][] {
  const here: [string[], unknown][] = path.length > 0 ? [[path, value]] : [];
  if (path.length >= 3 || !value || typeof value !== 'object') return here;
  const entries = Array.isArray(value)
    ? value.slice(0, 1).map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  return [...here, ...entries.flatMap(([k, v]) => fieldPaths(v, [...path, k]))];
}

/**
 * A passing body with one field (at any depth) made bad at a time: text long, a path, empty, an id of
 * nothing; numbers negative, huge, fractional; lists empty, with a bad entry, very long. The rest of the
 * body is fine, so the bad value meets the operation's own logic rather than its schema.
 */
function oneBadField(base: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [path, value] of fieldPaths(base)) {
    for (const v of badValuesFor(value)) {
      const body = structuredClone(base);
      setPath(body, path, v);
      out.push([`${path.join('.')}=${labelOf(v)}`, body]);
    }
  }
  // Keys that would reach a prototype if a body were merged into an object key by key.
  const rest = Object.keys(base).length > 0 ? `,${JSON.stringify(base).slice(1)}` : '}';
  out.push(['__proto__', JSON.parse(`{"__proto__":{"polluted":1}${rest}`)]);
  out.push(['constructor', { ...base, constructor: { prototype: { polluted: 1 } } }]);
  return out;
}

const BAD_PARAM_VALUES = [
  'q'.repeat(4000),
  '../x',
  '',
  MISSING_ID,
  '-1',
  '1e308',
  '2025-13-45',
  '2025-02-30',
  '2025-13',
  '\u0000',
];

/**
 * The query parameters each GET route's refusals named: the fields of a form error, or the leading names
 * of a message such as "postcode or address is required", with what was said about each.
 */
function learnParams(answers: [Call, TestResponse][]): Map<HttpRoute, Map<string, string>> {
  const out = new Map<HttpRoute, Map<string, string>>();
  for (const [call, res] of answers) {
    if (res.status !== 400) continue;
    const params = out.get(call.route) ?? new Map<string, string>();
    const fm = res.body.formMessages;
    if (fm && typeof fm === 'object') {
      for (const [k, m] of Object.entries(fm)) if (k !== '_form') params.set(k.split('.')[0] ?? k, String(m));
    }
    const message = String(res.body.message ?? '');
    const named = /^(\w+)(?: (?:and|or) (\w+))? (?:is|are|must)\b/.exec(message);
    for (const name of [named?.[1], named?.[2]]) if (name && !params.has(name)) params.set(name, message);
    if (params.size > 0) out.set(call.route, params);
  }
  return out;
}

/** A query each route takes, found as `passingBodies` finds a body. */
async function passingQueries(
  learned: Map<HttpRoute, Map<string, string>>,
): Promise<Map<HttpRoute, Record<string, string>>> {
  const out = new Map<HttpRoute, Record<string, string>>();
  const text = (v: unknown) => (Array.isArray(v) ? v.join(',') : String(v));
  await pool([...learned], 4, async ([route, params]) => {
    const query: Record<string, string> = {};
    for (const [p, message] of params) query[p] = text(repairFor(message, undefined));
    for (let round = 0; round < 3; round++) {
      const path = `${pathFor(route)}?${new URLSearchParams(query)}`;
      const res = await fx.api({ method: 'GET', path, token: admin.token });
      const fm = res.body.formMessages;
      if (res.status !== 400 || !fm || typeof fm !== 'object') break;
      for (const [k, m] of Object.entries(fm)) {
        if (k !== '_form') query[k.split('.')[0] ?? k] = text(repairFor(String(m), query[k]));
      }
    }
    out.set(route, query);
  });
  return out;
}

/** One item of each resource shared by every company (suppliers, templates, ...), keyed by resource name. */
const globalProbes = new Map<string, string>();

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
  admin = world.user('admin@voltfolio.test');
  const { putItem } = await import('../../functions/core/data/item-repository.ts');
  const { keys } = await import('../../functions/core/data/keys.ts');
  const now = new Date().toISOString();
  for (const r of RESOURCES.filter((d) => d.scope === 'global' && d.name !== 'companies')) {
    const id = newId();
    await putItem(
      { pk: keys.collection({}, r.name), indexes: r.indexes ?? [], searchFields: r.searchFields },
      { _id: id, name: `Probe ${r.name}`, createdAt: now, updatedAt: now },
    );
    globalProbes.set(r.name, id);
  }
});
afterAll(async () => fx?.stop());

describe('bad input never answers 500', () => {
  it('refuses bad bodies on every route that takes one', { timeout: 120_000 }, async () => {
    const calls: Call[] = [];
    const routes = HTTP_ROUTES.filter((r) => WRITES.includes(r.method));
    for (const route of routes) {
      const path = pathFor(route);
      const schemaBacked =
        route.resource !== undefined && /^generic\.(sub\.)?(create|update)$/.test(route.op);
      for (const [label, body] of badBodies(route)) {
        // Wrong types and non-objects can never be a resource's item; `{}` may be an update that changes nothing.
        const mustRefuse = schemaBacked && label !== '{}' && !label.startsWith('ids');
        calls.push({ route, label, path, body, mustRefuse });
      }
      const param = mainParam(route);
      if (param) {
        for (const bad of MALFORMED_IDS) {
          calls.push({
            route,
            label: `path ${param}=${JSON.stringify(bad)}`,
            path: pathFor(route, { param, value: bad }),
            body: { name: 'Bad id' },
          });
        }
      }
    }
    const first = await sweep(calls);
    const learned = new Map<HttpRoute, Map<string, Kind>>();
    learnFields(first.answers, learned);
    // Every named field given text: the refusals say which want another type.
    const asText = await sweep(
      [...learned].map(([route, fields]) => ({
        route,
        label: 'learned fields as text',
        path: pathFor(route),
        body: Object.fromEntries([...fields.keys()].map((f) => [f, 'x'])),
      })),
    );
    learnFields(asText.answers, learned);
    const deep = await sweep(
      [...learned].flatMap(([route, fields]) =>
        deepBodies(fields).map(([label, body]) => ({ route, label, path: pathFor(route), body })),
      ),
    );
    const bases = await passingBodies(learned);
    const single = await sweep(
      [...bases].flatMap(([route, base]) => {
        const bodies = oneBadField(base);
        // The same bodies as one entry of the resource's bulk create.
        const bulk = HTTP_ROUTES.find((r) => r.method === 'POST' && r.path === `${route.path}/bulk`);
        const inBulk = route.method === 'POST' && bulk ? bodies : [];
        return [
          ...bodies.map(([label, body]) => ({ route, label, path: pathFor(route), body })),
          ...inBulk.map(([label, body]) => ({
            route: bulk as HttpRoute,
            label,
            path: pathFor(bulk as HttpRoute),
            body: [body],
          })),
        ];
      }),
    );
    const { statuses } = first;
    expect([...first.wrong, ...asText.wrong, ...deep.wrong, ...single.wrong]).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    // The fields were learned: most routes had their own fields made bad one at a time.
    expect(single.answers.length).toBeGreaterThan(1000);
    // The sweep reached the operations: most bad bodies were refused by them, not by the route's guard.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(routes.length * 3);
    expect(statuses.get(403) ?? 0).toBeLessThan(calls.length / 10);
    expect(statuses.get(401) ?? 0).toBe(0);
  });

  it('answers garbage query parameters and malformed ids on every GET route below 500', {
    timeout: 90_000,
  }, async () => {
    // The body sweep re-keys the kiosk: its screen's key is set back to the one these calls send.
    const { putKioskCredential } = await import('../../functions/core/access/credential-repository.ts');
    const { digestOf } = await import('../../functions/core/lib/secrets.ts');
    await putKioskCredential({
      kioskId: world.demo.kioskId,
      companyId: world.demo.companyId,
      digest: digestOf('probe-secret'),
      rotatedAt: new Date().toISOString(),
    });
    const calls: Call[] = [];
    // A calendar feed's credential is its query: garbage there is a missing credential, rightly 401
    // (tests/integration/targets-api.test.ts calls it with bad tokens).
    const routes = HTTP_ROUTES.filter((r) => r.method === 'GET' && !r.auth?.includes('feed'));
    for (const route of routes) {
      for (const query of GARBAGE_QUERIES) {
        const kiosk = !(route.auth ?? ['user']).includes('user');
        calls.push({ route, label: query.slice(0, 40), path: `${pathFor(route)}?${query}`, kiosk });
      }
      const param = mainParam(route);
      for (const bad of param ? MALFORMED_IDS : []) {
        const path = pathFor(route, { param: param as string, value: bad });
        calls.push({ route, label: `path ${param}=${JSON.stringify(bad)}`, path });
      }
    }
    const first = await sweep(calls);
    // Then the parameters each route said it wants, mended until it answers, and made bad one at a time.
    const bases = await passingQueries(learnParams(first.answers));
    const single = await sweep(
      [...bases].flatMap(([route, base]) =>
        Object.keys(base).flatMap((param) =>
          BAD_PARAM_VALUES.map((bad) => {
            const query = new URLSearchParams({ ...base, [param]: bad });
            const kiosk = !(route.auth ?? ['user']).includes('user');
            return {
              route,
              label: `${param}=${bad.slice(0, 20)}`,
              path: `${pathFor(route)}?${query}`,
              kiosk,
            };
          }),
        ),
      ),
    );
    const { statuses } = first;
    expect([...first.wrong, ...single.wrong]).toEqual([]);
    expect(single.answers.length).toBeGreaterThan(100);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(statuses.get(403) ?? 0).toBeLessThan(calls.length / 10);
    expect(statuses.get(401) ?? 0).toBe(0);
  });
});
