// One section of a Markdown page, for tests that hold the documentation to the code: the text
// from a heading to the next heading of the same or a higher level, so a subsection stays inside it.
import { readFileSync } from 'node:fs';

/** A page of docs/ (`options` for docs/options.md), as text. */
export function docsPage(name: string): string {
  return readFileSync(new URL(`../../docs/${name}.md`, import.meta.url), 'utf8');
}

/** The section under the heading `title` in `text` (a page, or a section already cut out). */
export function markdownSection(title: string, text: string): string {
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
  if (start < 0) throw new Error(`the page has no section "${title}"`);
  return out.join('\n');
}
