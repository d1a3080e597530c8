// The client sessions a restarting server's clients still think open, given the context it crashed
// in: those an earlier crash had broken already and those it held, in that order, so equal
// histories give equal contexts. The restarted server is given them (`input.broken`), so a request
// that later arrives on one is refused as on a closed connection rather than taken for a new
// transaction with its earlier statements missing.
import type { ComponentSpec } from './componentSpec.ts';

export function brokenSessions(spec: Pick<ComponentSpec, 'sessionsOf'>, context: unknown): readonly string[] | undefined {
  const of = spec.sessionsOf;
  if (of === undefined) return undefined;
  const all = [...new Set([...((context as { broken?: readonly string[] }).broken ?? []), ...of(context)])];
  return all.length === 0 ? undefined : all;
}
