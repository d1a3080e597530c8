// The shape of the source, read with TypeScript's own parser: which modules import which (type-only
// imports included, since a cycle through types still ties two modules' meanings together), the
// cycles among them, the imports that reach up a layer, and every function's length in lines. The tidy test holds these to a
// baseline, so the source can only get simpler: no new cycle, no new function over 70 lines, and
// no function of the baseline growing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every .ts file under `dir`, as paths relative to `root`, sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

function parse(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The files among `files` each one imports or re-exports from, by relative path. */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const s of parse(root, file).statements) {
      const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : undefined;
      if (spec === undefined || !spec.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The cycles of a graph: each strongly connected component of two or more files (or a file importing itself), sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative in spirit but recursive here: the source is a few hundred files deep at most.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) !== indexOf.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** The layer a file belongs to: its folder under src/ (`top` for the package's entry points), or `models`. */
export function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'models') return 'models';
  return parts.length > 2 ? parts[1]! : 'top';
}

/** Every import from a file's layer into a higher one, as `from -> to`, given the layers lowest first. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>, layers: readonly string[]): string[] {
  const rank = (f: string) => layers.indexOf(layerOf(f));
  return [...graph].flatMap(([from, to]) => to.filter((t) => rank(t) > rank(from)).map((t) => `${from} -> ${t}`)).sort();
}

/** Every function, method, accessor, constructor and arrow of a file with its name and length in lines. */
export function functionLengths(root: string, file: string): { readonly name: string; readonly lines: number }[] {
  const source = parse(root, file);
  const out: { name: string; lines: number }[] = [];
  const nameOf = (n: ts.Node): string => {
    const named = n as ts.Node & { name?: ts.Node };
    if (named.name !== undefined && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const p = n.parent;
    if (p !== undefined && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name)) return p.name.text;
    return `(anonymous at line ${source.getLineAndCharacterOfPosition(n.getStart()).line + 1})`;
  };
  const walk = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(n.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(n.getEnd()).line;
      out.push({ name: nameOf(n), lines: end - start + 1 });
    }
    ts.forEachChild(n, walk);
  };
  walk(source);
  return out;
}
