// The fenced code blocks of a Markdown file, for the test that runs the README's examples.
// A block is runnable unless the line before it is an HTML comment starting `not run:`, which
// must say why.

export interface ReadmeBlock {
  readonly lang: string;
  readonly code: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly runs: boolean;
}

/** Every `ts` and `sh` block, in order. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README line ${i + 1}: a code block is never closed`);
    const lang = open[1]!;
    if (lang === 'ts' || lang === 'sh') {
      const before = i > 0 ? lines[i - 1]! : '';
      blocks.push({ lang, code: `${lines.slice(i + 1, end).join('\n')}\n`, line: i + 1, runs: !/^<!-- not run: \S.*-->$/.test(before) });
    }
    i = end;
  }
  return blocks;
}
