// The mutation run's list of what to mutate cannot rot unseen: every file it names exists, and
// every line range it computes from the source text is the whole of the World method or the
// machine's guards block it is meant to be, as TypeScript's own parser finds them. The mutation
// run itself is too slow for every change; this check is not.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain module shared with the Stryker config, without type declarations.
import { KERNEL_METHODS, WINDOW_KIND_FILES, closingLine, mutateGroups } from './mutateList.mjs';

const root = join(import.meta.dirname, '..', '..');
type Group = { name: string; entries: string[] };
const groups = mutateGroups(root) as Group[];

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

function linesOf(source: ts.SourceFile, node: ts.Node): [number, number] {
  const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  return [line(node.getStart(source)), line(node.getEnd())];
}

function find(node: ts.Node, test: (n: ts.Node) => boolean): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (test(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

function guardsBlocks(source: ts.SourceFile): ts.Node[] {
  return find(source, (n) => ts.isPropertyAssignment(n) && n.name.getText(source) === 'guards' && ts.isObjectLiteralExpression(n.initializer));
}

function rangeOf(entry: string): { file: string; lines?: [number, number] } {
  const m = /^(.*):(\d+)-(\d+)$/.exec(entry);
  return m ? { file: m[1]!, lines: [Number(m[2]), Number(m[3])] } : { file: entry };
}

describe('the mutation run mutates', () => {
  it('four groups, every file of which exists, and no file twice', () => {
    expect(groups.map((g) => g.name)).toEqual(['checkers and claims', 'verdict and clause tally', 'kernel phases and quiet rule', 'model guards']);
    const entries = groups.flatMap((g) => g.entries);
    for (const e of entries) expect(existsSync(join(root, rangeOf(e).file)), e).toBe(true);
    expect(new Set(entries).size).toBe(entries.length);
    expect(groups[0]!.entries).toContain('src/checkers/compose.ts');
    expect(groups[0]!.entries).toContain('src/checkers/claims.ts');
  });

  it("exactly the kernel's and the World's named methods, each from its signature to its closing brace, the window kinds' world parts, and the quiet rule whole", () => {
    const named = (KERNEL_METHODS as { file: string; class: string; methods: string[] }[]).flatMap((k) => k.methods.map((name) => ({ ...k, name })));
    const ranges = groups[2]!.entries.map(rangeOf);
    expect(ranges.map((r) => r.file)).toEqual([...named.map((m) => m.file), ...WINDOW_KIND_FILES, 'src/kernel/quiet.ts']);
    // Each window kind's `world: { … }` property, whole: what a plan's entry and a search's choice of it do.
    (WINDOW_KIND_FILES as string[]).forEach((file: string, k: number) => {
      const source = parse(file);
      const worlds = find(source, (n) => ts.isPropertyAssignment(n) && n.name.getText(source) === 'world' && ts.isObjectLiteralExpression(n.initializer));
      expect(worlds, file).toHaveLength(1);
      expect(ranges[named.length + k]!.lines, file).toEqual(linesOf(source, worlds[0]!));
    });
    expect(ranges.at(-1)!.lines).toBeUndefined();
    named.forEach(({ file, class: owner, name }, i) => {
      const source = parse(file);
      const methods = find(source, (n) => ts.isMethodDeclaration(n) && n.name.getText(source) === name && n.parent !== undefined && ts.isClassDeclaration(n.parent) && n.parent.name?.text === owner);
      expect(methods, name).toHaveLength(1);
      const [first, last] = ranges[i]!.lines!;
      expect(last, name).toBeGreaterThan(first);
      expect([first, last], name).toEqual(linesOf(source, methods[0]!));
    });
  });

  it("every model machine's guards block, whole, and nothing else of the model", () => {
    const models = groups[3]!.entries.map(rangeOf);
    // Every model whose machine has a guards object is listed, as the parser finds them.
    const guarded = readdirSync(join(root, 'models'))
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => `models/${f}`)
      .filter((file) => guardsBlocks(parse(file)).length > 0);
    expect(guarded.length).toBeGreaterThan(0);
    expect(models.map((r) => r.file)).toEqual(guarded);
    for (const { file, lines } of models) {
      const source = parse(file);
      const blocks = guardsBlocks(source);
      expect(blocks, file).toHaveLength(1);
      const [first, last] = lines!;
      expect(last, file).toBeGreaterThan(first);
      expect([first, last], file).toEqual(linesOf(source, blocks[0]!));
    }
  });
});

describe('the brace matcher behind the ranges', () => {
  it('skips braces and quotes in strings, comments and the text of a template, and balances a template\'s parts', () => {
    const text = "f() {\n  const a = '}';\n  // }\n  /* } */\n  const b = `${'{'}`;\n  const c = `it's ${a} { `;\n  if (x) { y(\"{\"); }\n}\nafter() {}\n";
    expect(closingLine(text, text.indexOf('{'))).toBe(8);
  });

  it('refuses a brace that is never closed', () => {
    expect(() => closingLine('f() {\n  {\n}', 4)).toThrow(/never closed/);
  });
});
