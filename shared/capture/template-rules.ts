import type { Template, TemplatePages, TemplateVersion, TextRule } from './model.ts';
import type { PageDocument } from './pages.ts';

/**
 * Which template reads a document, which of its versions, and how its pages fall into invoices. Rules
 * look for a phrase (any case, any spacing) or a regular expression on a page of the invoice.
 */

/** A rule's regular expression: '/source/flags' as written, or the bare source matched in any case. */
export function ruleRegex(value: string): RegExp | undefined {
  const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(value);
  try {
    return literal ? new RegExp(literal[1] as string, literal[2]) : new RegExp(value, 'im');
  } catch {
    return undefined;
  }
}

/** A normalised page text for 'contains' rules: lower case, one space wherever there was any. */
function flat(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** The document pages a rule looks at: its page of the invoice (-1 the last), else all of them. */
function rulePages(rule: TextRule, pages: readonly number[]): number[] {
  if (rule.page === undefined || rule.page === 0) return [...pages];
  const at = rule.page > 0 ? pages[rule.page - 1] : pages[pages.length + rule.page];
  return at === undefined ? [] : [at];
}

function textHolds(rule: TextRule, text: string): boolean {
  if (rule.type === 'regex') {
    const regex = ruleRegex(rule.value);
    return regex ? regex.test(text) : false;
  }
  const wanted = flat(rule.value).trim();
  return wanted !== '' && flat(text).includes(wanted);
}

/** Whether a rule holds on the given pages of a document (1-based, the pages of one invoice). */
export function ruleHolds(rule: TextRule, doc: PageDocument, pages: readonly number[]): boolean {
  const found = rulePages(rule, pages).some((n) => {
    const page = doc.pages[n - 1];
    return page ? textHolds(rule, page.text) : false;
  });
  return rule.negate ? !found : found;
}

export function allPages(doc: PageDocument): number[] {
  return doc.pages.map((p) => p.number);
}

/**
 * The templates whose supplier rules all hold on the document, the most specific (most rules) first.
 * A template without supplier rules identifies nothing.
 */
export function identifySupplier(templates: readonly Template[], doc: PageDocument): Template[] {
  const pages = allPages(doc);
  return templates
    .filter((t) => t.supplierRules.length > 0 && t.supplierRules.every((r) => ruleHolds(r, doc, pages)))
    .sort((a, b) => b.supplierRules.length - a.supplierRules.length);
}

/**
 * The version of a template that reads the document: the first version with rules that all hold; else
 * the first version without rules; else the newest, as a layout nobody has written rules for yet is
 * most likely the latest. Undefined only when the template has no versions.
 */
export function chooseVersion(
  template: Template,
  doc: PageDocument,
  pages: readonly number[] = allPages(doc),
): TemplateVersion | undefined {
  const rulesOf = (v: TemplateVersion) => template.versionRules.filter((r) => r.versionId === v._id);
  const withRules = template.versions.find((v) => {
    const rules = rulesOf(v);
    return rules.length > 0 && rules.every((r) => ruleHolds(r, doc, pages));
  });
  if (withRules) return withRules;
  const open = template.versions.find((v) => rulesOf(v).length === 0);
  if (open) return open;
  return [...template.versions].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
}

/**
 * The pages of each invoice in a document: a new invoice at every page where the start rule holds
 * (pages before the first such page belong to the first invoice), or runs of pagesPerInvoice pages,
 * or else the whole document as one invoice.
 */
export function splitInvoices(rule: TemplatePages | undefined, doc: PageDocument): number[][] {
  const pages = allPages(doc);
  if (rule?.invoiceStartRule) {
    const start = rule.invoiceStartRule;
    const groups: number[][] = [];
    for (const page of pages) {
      const starts = ruleHolds({ ...start, page: undefined }, doc, [page]);
      const last = groups[groups.length - 1];
      if (starts || !last) groups.push([page]);
      else last.push(page);
    }
    // Leading pages before the first start (a cover letter) join the first invoice.
    const firstStart = pages.find((p) => ruleHolds({ ...start, page: undefined }, doc, [p]));
    if (firstStart !== undefined && firstStart !== pages[0] && groups.length > 1) {
      const [cover, first, ...others] = groups;
      return [[...(cover ?? []), ...(first ?? [])], ...others];
    }
    return groups;
  }
  const per = rule?.pagesPerInvoice;
  if (per && per > 0 && Number.isInteger(per)) {
    const groups: number[][] = [];
    for (let i = 0; i < pages.length; i += per) groups.push(pages.slice(i, i + per));
    return groups;
  }
  return [pages];
}

/** The page rule of a version; a template without versions uses its only page rule. */
export function pagesRuleOf(template: Template, versionId: string | undefined): TemplatePages | undefined {
  return versionId === undefined
    ? template.pages[0]
    : (template.pages.find((p) => p.versionId === versionId) ?? undefined);
}
