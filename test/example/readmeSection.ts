// One section of the README, for tests that hold the documentation to the code: the text from a
// heading to the next heading of the same or a higher level, so a subsection stays inside it.
import { readFileSync } from 'node:fs';

export function readmeSection(title: string): string {
  const lines = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').split('\n');
  let inFence = false;
  let start = -1;
  let level = 0;
  const out: string[] = [];
  for (const line of lines) {
    // A `#` inside a code block is a comment, not a heading.
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^(#+) (.*)$/.exec(line);
    if (start < 0) {
      if (heading && heading[2]!.trim() === title) {
        start = 0;
        level = heading[1]!.length;
        out.push(line);
      }
      continue;
    }
    if (heading && heading[1]!.length <= level) break;
    out.push(line);
  }
  if (start < 0) throw new Error(`README.md has no section "${title}"`);
  return out.join('\n');
}
