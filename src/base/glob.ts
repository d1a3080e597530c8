// Expands a path pattern into the files it matches, for commands that take several scenario
// files at once (`faultline windows 'designs/*.ts'`). A shell usually expands the pattern itself;
// a quoted one, or one on a platform whose shell does not, arrives here. `*` and `?` match
// within one path segment, `**` any number of segments, `[abc]` one of the characters; hidden
// entries and node_modules are skipped unless named outright.
import { readdirSync, type Dirent } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

/** True when `text` contains a pattern character. */
export function isGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${segment.slice(i + 1, end).replace(/\\/g, '\\\\').replace(/^!/, '^')}]`;
        i = end;
      }
    } else source += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The files (not folders) that `pattern` matches, sorted, as absolute paths. */
export function expandGlob(pattern: string, cwd = process.cwd()): string[] {
  const absolute = isAbsolute(pattern);
  const parts = pattern.split(/[\\/]+/).filter((p, i) => p !== '' || (i === 0 && absolute));
  let base = absolute ? sep : resolve(cwd);
  // The literal segments before the first pattern character are a plain path.
  while (parts.length > 0 && !isGlob(parts[0]!)) base = join(base, parts.shift()!);
  const found = new Set<string>();
  const walk = (dir: string, rest: readonly string[]): void => {
    if (rest.length === 0) return;
    const [head, ...tail] = rest as [string, ...string[]];
    if (head === '**') {
      walk(dir, tail);
      for (const e of entries(dir)) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') walk(join(dir, e.name), rest);
      return;
    }
    if (!isGlob(head)) {
      const next = join(dir, head);
      if (tail.length === 0) {
        if (entries(dir).some((e) => e.name === head && !e.isDirectory())) found.add(next);
      } else walk(next, tail);
      return;
    }
    const re = segmentRegex(head);
    for (const e of entries(dir)) {
      if (!re.test(e.name) || (e.name.startsWith('.') && !head.startsWith('.'))) continue;
      if (tail.length === 0) {
        if (!e.isDirectory()) found.add(join(dir, e.name));
      } else if (e.isDirectory() || e.isSymbolicLink()) walk(join(dir, e.name), tail);
    }
  };
  walk(base, parts);
  return [...found].sort();
}
