// The fenced code blocks of a Markdown file, for the test that runs the examples of the README and of docs/.
// A block is runnable unless the line before it is an HTML comment starting `not run:`, which
// must say why. A TypeScript block names the file it is saved as on its first line
// (`// api-example.ts`), or, when its first lines belong to the file itself (a block a test
// holds equal to a file of this repository), in a comment on the line before it
// (`<!-- file: order-fan-out.ts -->`). A `console` block is a command (`$ faultline …` on its
// first line) and what it prints; a line `…` stands for lines left out.

export interface ReadmeBlock {
  readonly lang: string;
  readonly code: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly runs: boolean;
  /** The file a TypeScript block is saved as, when it names one. */
  readonly file: string | undefined;
}

/** Every `ts`, `sh` and `console` block, in order. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`line ${i + 1}: a code block is never closed`);
    const lang = open[1]!;
    if (lang === 'ts' || lang === 'sh' || lang === 'console') {
      const before = i > 0 ? lines[i - 1]! : '';
      const code = `${lines.slice(i + 1, end).join('\n')}\n`;
      const file = lang === 'ts' ? (/^<!-- file: (\S+\.ts) -->$/.exec(before)?.[1] ?? /^\/\/ (\S+\.ts)\n/.exec(code)?.[1]) : undefined;
      blocks.push({ lang, code, line: i + 1, runs: !/^<!-- not run: \S.*-->$/.test(before), file });
    }
    i = end;
  }
  return blocks;
}
