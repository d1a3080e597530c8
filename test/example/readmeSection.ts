// One section of the README, for tests that hold the documentation to the code: the text from a
// heading to the next heading of the same or a higher level, so a subsection stays inside it.
import { readFileSync } from 'node:fs';

/** The section under the heading `title`, in the README or in `text` (a section already cut out). */
export function readmeSection(title: string, text = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')): string {
  const lines = text.split('\n');
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
  if (start < 0) throw new Error(`the README has no section "${title}"`);
  return out.join('\n');
}
