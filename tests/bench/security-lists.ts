/**
 * What a member with grants may see in each list the API answers, worked out from their grants and the
 * company's register as its owner reads it (01 §6: a grant on an item or a parent gives it; notifications
 * are their member's own), never from what the API lists to the member. `judgeList` reads a list answer
 * item by item against it; the sweep judges the owner's answer the same way as the check's control.
 */

/** Calls the API as a token's holder (none: no token); answers the status and the parsed body. */
export type Api = (
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

type Item = Record<string, unknown>;
type Grants = Record<'entities' | 'assets' | 'accounts', { read: string[]; write: string[] }>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The items of a list answer: an array, or `{ data: [...] }`; undefined when the answer is no list. */
export function itemsOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  const data = (body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data : undefined;
}

/** The company as its owner reads it: the register and what bills and captures hang off. */
export class Register {
  readonly entityParent = new Map<string, string | undefined>();
  readonly assetEntity = new Map<string, string | undefined>();
  readonly accounts = new Map<string, { assetId?: string; entityId?: string; tags: string[] }>();
  readonly groups = new Map<string, string[]>();
  readonly captureInvoices = new Map<string, string[]>();
  private readonly invoiceAccount = new Map<string, string | undefined>();

  private readonly api: Api;
  private readonly owner: string;
  constructor(api: Api, owner: string) {
    this.api = api;
    this.owner = owner;
  }

  private async all(path: string): Promise<Item[]> {
    const out: Item[] = [];
    for (let skip = 0; ; skip += 1000) {
      const sep = path.includes('?') ? '&' : '?';
      const { status, body } = await this.api('GET', `${path}${sep}limit=1000&skip=${skip}`, this.owner);
      const page = status === 200 ? ((itemsOf(body) ?? []) as Item[]) : [];
      out.push(...page);
      if (page.length < 1000) return out;
    }
  }

  /** Reads (again) everything the rules look up. */
  async load(): Promise<this> {
    for (const e of await this.all('/entities')) this.entityParent.set(String(e._id), str(e.parentEntityId));
    for (const a of await this.all('/assets')) this.assetEntity.set(String(a._id), str(a.entityId));
    for (const c of await this.all('/accounts'))
      this.accounts.set(String(c._id), {
        ...(str(c.assetId) ? { assetId: str(c.assetId) } : {}),
        ...(str(c.entityId) ? { entityId: str(c.entityId) } : {}),
        tags: strs(c.tags),
      });
    for (const g of await this.all('/asset-groups')) this.groups.set(String(g._id), strs(g.assetIds));
    for (const c of await this.all('/invoice-validation/invoices'))
      this.captureInvoices.set(String(c._id), strs(c.invoiceIds));
    return this;
  }

  /** The account of a bill (undefined: none yet), as its owner reads it. */
  async accountOfInvoice(id: string): Promise<string | undefined> {
    if (!this.invoiceAccount.has(id)) {
      const { status, body } = await this.api('GET', `/invoices/${id}`, this.owner);
      this.invoiceAccount.set(id, status === 200 ? str((body as Item).accountId) : undefined);
    }
    return this.invoiceAccount.get(id);
  }

  /** The entity and its parents, nearest first. */
  entityLine(id: string | undefined): string[] {
    const out: string[] = [];
    for (let at = id; at !== undefined && !out.includes(at); at = this.entityParent.get(at)) out.push(at);
    return out;
  }
}

/** A member as the rules judge them: who they are, what their permissions allow, and their grants. */
export class Reader {
  readonly sub: string;
  readonly companyId: string;
  readonly permissions: readonly string[];
  private readonly grants: Grants;
  private readonly register: Register;
  constructor(
    sub: string,
    companyId: string,
    permissions: readonly string[],
    grants: Grants,
    register: Register,
  ) {
    this.sub = sub;
    this.companyId = companyId;
    this.permissions = permissions;
    this.grants = grants;
    this.register = register;
  }

  private granted(kind: keyof Grants, id: string | undefined): boolean {
    return id !== undefined && (this.grants[kind].read.includes(id) || this.grants[kind].write.includes(id));
  }

  /** Bill validators see bills no account is matched to yet (the billing roles, 01 §6). */
  get billing(): boolean {
    return this.permissions.some((p) =>
      ['bill_validation', 'bill_validation_v2', 'company_admin'].includes(p),
    );
  }

  entity(id: string | undefined): boolean {
    return this.register.entityLine(id).some((e) => this.granted('entities', e));
  }

  site(id: string | undefined): boolean {
    return id !== undefined && (this.granted('assets', id) || this.entity(this.register.assetEntity.get(id)));
  }

  meter(id: string | undefined): boolean {
    if (id === undefined) return false;
    const account = this.register.accounts.get(id);
    return (
      this.granted('accounts', id) ||
      this.site(account?.assetId) ||
      this.entity(account?.entityId ?? this.register.assetEntity.get(account?.assetId ?? ''))
    );
  }

  /** A bill's: on a meter the member reads, or (no meter matched yet) the billing roles'. */
  async bill(id: string): Promise<boolean> {
    const account = await this.register.accountOfInvoice(id);
    return account === undefined ? this.billing : this.meter(account);
  }

  /** A captured document's: every bill taken from it is the member's (none yet: the billing roles'). */
  async capture(id: string | undefined): Promise<boolean> {
    if (id === undefined) return false;
    const invoices = this.register.captureInvoices.get(id) ?? [id];
    for (const invoice of invoices) if (!(await this.bill(invoice))) return false;
    return true;
  }

  group(id: string | undefined): boolean {
    const sites = id === undefined ? undefined : this.register.groups.get(id);
    return sites !== undefined && sites.length > 0 && sites.every((s) => this.site(s));
  }
}

/** What an item names that the member may not see: empty when the item is theirs to see. */
type Rule = (item: Item, reader: Reader, register: Register) => Promise<string[]> | string[];

const need = (ok: boolean, what: string): string[] => (ok ? [] : [what]);
const all = (ids: readonly string[], ok: (id: string) => boolean, kind: string) =>
  ids.filter((id) => !ok(id)).map((id) => `${kind} ${id}`);

const idOf = (item: Item) => String(item._id ?? item.id ?? '?');
const onSite = (i: Item, r: Reader): string[] =>
  need(r.site(str(i.assetId)), `site ${str(i.assetId) ?? '(none)'}`);
const siteItem: Rule = onSite;
const meterItem: Rule = (i, r) => need(r.meter(str(i.accountId)), `meter ${str(i.accountId) ?? '(none)'}`);
/** A bill or its validation: its meter's, or before a meter is matched the billing roles'. */
const billItem: Rule = (i, r) =>
  str(i.accountId) === undefined
    ? need(r.billing, `bill ${idOf(i)} without a meter`)
    : need(r.meter(str(i.accountId)), `meter ${str(i.accountId)}`);
/** Only the member it belongs to sees it, whatever their role. */
const ownItem: Rule = (i, r) => need(i.userSub === r.sub, `another member's ${idOf(i)}`);
/** Reference data every company shares: it names no company's items. */
const catalogue: Rule = (i) => need(i.companyId === undefined, `company item ${idOf(i)}`);
/** A list only company-wide members (or a permission the restricted callers lack) may read. */
const companyWideOnly: Rule = (i) => [`company-wide item ${idOf(i)}`];
const treeNodes = (i: Item): Item[] => [
  i,
  ...(Array.isArray(i.children) ? (i.children as Item[]).flatMap(treeNodes) : []),
];

/** The rule each list is judged by, by its path. */
const RULES: Record<string, { name: string; rule: Rule }> = {};
function rule(name: string, paths: readonly string[], fn: Rule) {
  for (const p of paths) RULES[p] = { name, rule: fn };
}
rule('sites read', ['/assets'], (i, r) => need(r.site(idOf(i)), `site ${idOf(i)}`));
rule('meters read', ['/accounts'], (i, r) => need(r.meter(idOf(i)), `meter ${idOf(i)}`));
rule('entities read', ['/entities'], (i, r) => need(r.entity(idOf(i)), `entity ${idOf(i)}`));
rule('entity tree read', ['/entities/structure'], (i, r) =>
  treeNodes(i).flatMap((n) => need(r.entity(idOf(n)), `entity ${idOf(n)}`)),
);
rule('by site', ['/util/asset-certificates', '/calendar/events', '/projects', '/kiosks'], siteItem);
rule('by meter', ['/readings'], meterItem);
rule(
  'bills by meter',
  ['/invoices', '/invoices/validation', '/invoice-validation', '/invoice-validation/queue'],
  billItem,
);
rule('documents by their bills', ['/invoice-validation/invoices'], async (i, r) =>
  need(await r.capture(idOf(i)), `document ${idOf(i)}`),
);
rule('mail by its documents', ['/emails'], async (i, r) => {
  const attachments = Array.isArray(i.attachments) ? (i.attachments as Item[]) : [];
  if (attachments.length === 0) return [`mail ${idOf(i)} that made no document`];
  const out: string[] = [];
  for (const a of attachments)
    if (!(await r.capture(str(a.captureId)))) out.push(`attachment ${idOf(a)} of mail ${idOf(i)}`);
  return out;
});
rule('threads by site and meters', ['/messages'], (i, r) => [
  ...onSite(i, r),
  ...all(strs(i.accountIds), (id) => r.meter(id), 'meter'),
]);
rule('portfolios by every site', ['/asset-groups', '/users/me/asset-groups'], (i, r) =>
  all(strs(i.assetIds), (id) => r.site(id), 'site'),
);
rule('recommendations by site', ['/recommendations'], (i, r) =>
  str(i.assetId) === undefined ? [`company-wide recommendation ${idOf(i)}`] : onSite(i, r),
);
rule('reports by every site', ['/reports'], (i, r) => {
  const sites = strs(i.assetIds);
  if (sites.length === 0) return [`company-wide report ${idOf(i)}`];
  return all(sites, (id) => r.site(id), 'site');
});
rule('targets by scope', ['/targets', '/targets/search', '/targets/progress'], (i, r) => {
  const scope = str(i.scope);
  const id = str(i.scopeId);
  const ok =
    scope === 'site' ? r.site(id) : scope === 'entity' ? r.entity(id) : scope === 'portfolio' && r.group(id);
  return need(ok, `${scope ?? 'unscoped'} target ${idOf(i)}`);
});
rule('own only', ['/notifications', '/users/me/notifications'], ownItem);
// A dashboard is its member's home, and its widgets theirs (the widget figures answer only its maker).
rule('own boards and widgets', ['/dashboards', '/widgets'], (i, r) =>
  need(i.createdBy === r.sub, `another member's ${idOf(i)}`),
);
rule('tags of meters read', ['/accounts/tags'], (i, r, reg) => {
  const tag = typeof i === 'string' ? (i as string) : String(i.value ?? i.name ?? '');
  const on = [...reg.accounts].some(([id, a]) => a.tags.includes(tag) && r.meter(id));
  return need(on, `tag ${tag}`);
});
rule('own companies', ['/users/me/companies'], (i, r) => need(i._id === r.companyId, `company ${idOf(i)}`));
rule(
  'shared reference data',
  [
    '/suppliers',
    '/countries',
    '/benchmarks',
    '/benchmarks/crrem/pathway-sets',
    '/report-templates/system',
    '/accounts/waste-categories',
    '/util/asset-types',
    '/util/utility-types',
    '/util/units',
    '/util/granularities',
    '/util/energy-suppliers',
    '/util/integrations',
  ],
  catalogue,
);
rule('company templates every reader shares', ['/report-templates', '/import-templates'], (i, r) =>
  need(i.companyId === r.companyId, `another company's ${idOf(i)}`),
);
rule(
  'company-wide or permission only',
  [
    '/users',
    '/roles',
    '/companies/roles',
    '/machines',
    '/logs',
    '/imports',
    '/permissions',
    '/settings',
    '/scheduled-reports',
    '/scheduled-reports/recipients',
    '/scraper-runs',
    '/scraper-runs/connectors',
    '/automations',
    '/automation-runs',
    '/automation/templates',
    '/marketplace/carbon',
    '/marketplace/carbon/project-types',
  ],
  companyWideOnly,
);

/** The verdict on one list answer: the rule it was judged by (none: no rule), and what it should not show. */
export async function judgeList(
  path: string,
  body: unknown,
  reader: Reader,
  register: Register,
): Promise<{ rule?: string; items: number; leaks: string[] } | undefined> {
  const items = itemsOf(body);
  if (!items) return undefined;
  const found = RULES[path];
  if (!found) return { items: items.length, leaks: [] };
  const leaks: string[] = [];
  for (const item of items) leaks.push(...(await found.rule(item as Item, reader, register)));
  return { rule: found.name, items: items.length, leaks: [...new Set(leaks)] };
}

/** The member whose token this is, as the rules judge them (their grants as the owner's users list gives them). */
export async function readerOf(api: Api, token: string, owner: string, register: Register): Promise<Reader> {
  const me = (await api('GET', '/users/me', token)).body as Item;
  const sub = String(me.sub ?? me._id);
  const users = itemsOf((await api('GET', '/users?limit=1000', owner)).body) as Item[];
  const user = users.find((u) => u._id === sub);
  const none = { read: [], write: [] };
  const grants = (user?.grants as Grants | undefined) ?? { entities: none, assets: none, accounts: none };
  return new Reader(sub, String(me.companyId), strs(me.permissions), grants, register);
}
