// Where the command line writes. Every line ends in exactly one newline, whether or not the
// command gave one; a progress line is written as it is, so it can redraw itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bufferIo, processIo } from '../../src/cli/io.ts';

describe('bufferIo', () => {
  it('keeps stdout and stderr apart, ending each line once, and progress as it is', () => {
    const io = bufferIo();
    io.out('a');
    io.out('b\n');
    io.err('c');
    io.progress('\r[1/2]');
    io.progress('\r\u001b[K');
    expect(io.stdout).toBe('a\nb\n');
    expect(io.stderr).toBe('c\n\r[1/2]\r\u001b[K');
    expect(io.isTTY).toBe(false);
    expect(bufferIo(true).isTTY).toBe(true);
  });
});

describe('processIo', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes results to stdout and refusals and progress to stderr, the same way', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    processIo.out('a');
    processIo.out('b\n');
    processIo.err('c');
    processIo.progress('\r[1/2]');
    expect(out.mock.calls.map((c) => c[0])).toEqual(['a\n', 'b\n']);
    expect(err.mock.calls.map((c) => c[0])).toEqual(['c\n', '\r[1/2]']);
    expect(processIo.isTTY).toBe(Boolean(process.stdout.isTTY));
  });
});
