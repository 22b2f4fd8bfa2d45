import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The generic calls answer stored records that the browser reads as the shared answer types; the link is
 * a type check in `functions/core/resources/generic-records.ts`. These cases compile that file with the
 * areas' records, as `tsc` does, once as it is and once with a view or a schema changed so that they
 * disagree: the type check must refuse the change and name the collection and field.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const CHECKS = join(ROOT, 'functions/core/resources/generic-records.ts');

/** Every area file that adds its record to the check (`declare module '…/generic-records.ts'`). */
function areaRecordFiles(): string[] {
  const dir = join(ROOT, 'functions');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
    .filter((f) =>
      /declare module '[./]+core\/resources\/generic-records\.ts'/.test(readFileSync(f, 'utf8')),
    );
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
}

const options = compilerOptions();
const roots = [CHECKS, ...areaRecordFiles()];
let previous: ts.Program | undefined;

/** The type errors of the check, with files replaced by the given text (a changed view or schema). */
function checkErrors(replaced: Readonly<Record<string, string>> = {}): string[] {
  const swaps = new Map(Object.entries(replaced).map(([path, text]) => [join(ROOT, path), text]));
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => swaps.get(resolve(file)) ?? readFile(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError) => {
    const text = swaps.get(resolve(file));
    return text === undefined
      ? getSourceFile(file, language, onError)
      : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: roots, options, host, oldProgram: previous });
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? relative(ROOT, d.file.fileName) : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** A file of the repository with one piece of its text replaced; fails if the piece is not there. */
function changed(path: string, from: string, to: string): Record<string, string> {
  const text = readFileSync(join(ROOT, path), 'utf8');
  if (!text.includes(from)) throw new Error(`${path} no longer holds ${from}`);
  return { [path]: text.replace(from, to) };
}

describe('stored records of the generic calls against the answer types the browser reads', () => {
  it('finds every area record and every view fitting as they are', () => {
    expect(roots.map((f) => relative(ROOT, f))).toEqual(
      expect.arrayContaining([
        'functions/automation/automation-repository.ts',
        'functions/reports/report-repository.ts',
        'functions/reports/schedule-repository.ts',
      ]),
    );
    expect(checkErrors()).toEqual([]);
  }, 60_000);

  it('refuses a view that requires a field the schema does not store', () => {
    const errors = checkErrors(
      changed(
        'shared/schemas/responses/entities.ts',
        '  legalName: string;\n',
        '  legalName: string;\n  vatNumber: string;\n',
      ),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*entities[\s\S]*vatNumber/);
  }, 60_000);

  it('refuses a schema that stores a field otherwise than its view reads it', () => {
    const errors = checkErrors(
      changed('shared/schemas/role.ts', 'name: nonEmpty.max(100),', 'name: z.number(),'),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*roles\.name/);
  }, 60_000);

  it('refuses a bill validation view that requires a field the queue does not answer', () => {
    const errors = checkErrors(
      changed(
        'shared/schemas/responses/invoices.ts',
        '  hold: boolean;\n  tags?: string[];\n',
        '  hold: boolean;\n  reviewedBy: string;\n  tags?: string[];\n',
      ),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*invoice-validation[\s\S]*reviewedBy/);
  }, 60_000);

  it("refuses a bill validation record that types its checks' group otherwise than the bill page reads it", () => {
    const errors = checkErrors(
      changed('functions/invoices/invoice-repository.ts', '  group?: string;\n', '  group?: number;\n'),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*invoice-validation[\s\S]*group/);
  }, 60_000);

  it("refuses an area's record that no longer fits its view", () => {
    const errors = checkErrors(
      changed(
        'functions/automation/automation-repository.ts',
        "  trigger: 'manual' | 'schedule';\n  /** The connector run",
        "  trigger?: 'manual' | 'schedule';\n  /** The connector run",
      ),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*automation-runs[\s\S]*trigger/);
  }, 60_000);

  it("refuses an area's record that types a field of its schema otherwise", () => {
    const errors = checkErrors(
      changed(
        'shared/schemas/data-import.ts',
        "status: z.enum(IMPORT_STATUSES).default('pending')",
        'status: z.number()',
      ),
    );
    expect(errors.join('\n')).toMatch(/generic-records\.ts: [\s\S]*imports[\s\S]*status/);
  }, 60_000);
});
