// What a mutation run (`npm run mutants`) mutates, in four groups: the checkers and the claims,
// the verdict and the clause tally, the kernel's phase logic and quiet rule, and the models'
// guards. The kernel, the World and the models are mutated only in part, so their line ranges are
// computed from the source text each time the Stryker config loads: a range written by hand would drift as soon as
// the file above it changed, and the run would mutate the wrong lines without a word.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The methods a mutation run plants bugs in, by file and class: the World's phases and the order
 * it takes what is due, and the kernel's heal, ending, window faults, server windows, crash and
 * restore (the quiet rule is src/kernel/quiet.ts, mutated whole).
 */
export const KERNEL_METHODS = [
  { file: 'src/run/world.ts', class: 'World', methods: ['run', 'runPhase', 'next', 'heal'] },
  { file: 'src/kernel/kernel.ts', class: 'Kernel', methods: ['heal', 'end', 'afterStep', 'strikeAtWindow', 'serverWindow', 'crash', 'restore'] },
];

/** The window fault kinds whose `world` part (what a plan's entry and a search's choice do: src/faults/faultWorld.ts) is mutated with the kernel. */
export const WINDOW_KIND_FILES = ['src/faults/kinds/crash.ts', 'src/faults/kinds/restore.ts', 'src/faults/kinds/skew.ts'];

/**
 * The 1-based line of the brace that closes the one opened at `open` (an index into `text`).
 * Quoted strings, template literals' text and comments are skipped, since a brace or a quote there
 * opens nothing; a template literal's `${…}` parts hold balanced braces of their own.
 */
export function closingLine(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
      if (i < 1) break;
    } else if (c === "'" || c === '"') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '`') {
      // A template literal's text may hold any quote; its `${…}` parts hold balanced braces.
      for (i++; i < text.length && text[i] !== '`'; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '$' && text[i + 1] === '{') {
          let inner = 0;
          for (i++; i < text.length; i++) {
            const q = text[i];
            if (q === "'" || q === '"') {
              for (i++; i < text.length && text[i] !== q; i++) if (text[i] === '\\') i++;
            } else if (q === '{') inner++;
            else if (q === '}' && --inner === 0) break;
          }
        }
      }
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return lineOf(text, i);
  }
  throw new Error(`the brace opened on line ${lineOf(text, open)} is never closed`);
}

function lineOf(text, index) {
  let line = 1;
  for (let i = 0; i < index; i++) if (text[i] === '\n') line++;
  return line;
}

/** The lines of a block that starts where `pattern` matches and runs to its closing brace. */
function blockLines(text, pattern, what) {
  const m = pattern.exec(text);
  if (!m) throw new Error(`no ${what}`);
  const open = text.indexOf('{', m.index + m[0].length - 1);
  return [lineOf(text, m.index), closingLine(text, open)];
}

/** The lines of a class method `name` (its signature through its closing brace). */
export function methodLines(text, name) {
  return blockLines(text, new RegExp(`^[ \\t]+(?:private |public |protected )?${name}\\([^\\n]*\\{[ \\t]*$`, 'm'), `method ${name}`);
}

/** The lines of a fault kind's `world: {` block. */
export function worldLines(text) {
  return blockLines(text, /^[ \t]+world: \{/m, 'world block');
}

/** The lines of a machine's `guards: {` block. */
export function guardsLines(text) {
  return blockLines(text, /^[ \t]+guards: \{/m, 'guards block');
}

/** The model files whose machine has guards, sorted. */
export function guardedModels(root) {
  return readdirSync(join(root, 'models'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => `models/${f}`)
    .filter((file) => /^[ \t]+guards: \{/m.test(readFileSync(join(root, file), 'utf8')));
}

/**
 * The groups, each a name and its mutate entries (a path, or `path:first-last` for a range of
 * lines); Stryker's `mutate` is their concatenation.
 */
export function mutateGroups(root) {
  const read = (file) => readFileSync(join(root, file), 'utf8');
  const range = (file, [first, last]) => `${file}:${first}-${last}`;
  // The verdict and the clause tally sit in src/checkers/ beside the checkers, but are a group of their own.
  const verdict = ['src/checkers/verdict.ts', 'src/checkers/coverage.ts', 'src/report/claimSentence.ts'];
  return [
    {
      name: 'checkers and claims',
      entries: readdirSync(join(root, 'src/checkers'))
        .filter((f) => f.endsWith('.ts'))
        .sort()
        .map((f) => `src/checkers/${f}`)
        .filter((f) => !verdict.includes(f)),
    },
    { name: 'verdict and clause tally', entries: verdict },
    { name: 'kernel phases and quiet rule', entries: [...KERNEL_METHODS.flatMap(({ file, methods }) => methods.map((m) => range(file, methodLines(read(file), m)))), ...WINDOW_KIND_FILES.map((file) => range(file, worldLines(read(file)))), 'src/kernel/quiet.ts'] },
    { name: 'model guards', entries: guardedModels(root).map((file) => range(file, guardsLines(read(file)))) },
  ];
}
