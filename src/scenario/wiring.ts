// The load-time check of a design and its claims, written once and run wherever a design comes
// in: by compose() when the components are built, by defineScenario for every scenario the
// command line or the API loads. Everything a design names must exist before any run: each
// component named once, every peer a component sends to drawn, every table and field a
// component's own check asks for (its `wiring`), every component and table a claim reads, every
// table a claim's repair queries name, every field a claim keys on, and the source facts a
// claim's clauses need (src/scenario/claimFacts.ts). A mistake found here is one line of bad input naming
// the nearest valid name; found in a run, it would be a stack trace or, worse, a verdict (a
// misspelt table read as empty is a lost effect).
import type { Claim, ClaimTable } from '../checkers/claims.ts';
import { factProblems } from './claimFacts.ts';
import { probeClaim, startOf } from './claimProbe.ts';
import { designIndex, type DesignIndex, type DesignPart } from '../checkers/designIndex.ts';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';

/** Every problem of the drawing and of the claims over it, one phrase each, in the design's order. */
export function wiringProblems(components: readonly DesignPart[], claims: readonly Claim[] = []): string[] {
  const shape = shapeProblems(components);
  if (shape.length > 0) return shape;
  const design = designIndex(components);
  const drawn = [...drawingProblems(design), ...components.flatMap((c) => (c.wiring?.(design) ?? []).map((p) => `${c.name}: ${p}`))];
  if (claims.length === 0) return drawn;
  const start = startOf(components);
  return [...drawn, ...claims.flatMap((c) => [...factProblems(c), ...probeClaim(c, start), ...tableProblems(c, design), ...(c.wiring?.(design) ?? []).map((p) => `claim ${JSON.stringify(c.effect)}: ${p}`)])];
}

/** Refuses a design (and its claims) with every problem on one line. */
export function checkWiring(components: readonly DesignPart[], claims: readonly Claim[] = []): void {
  const problems = wiringProblems(components, claims);
  if (problems.length > 0) throw new InputError(problems.join('; '));
}

/** Components that are not components: a list inside the list, something with no name or machine. */
function shapeProblems(components: readonly DesignPart[]): string[] {
  return components.flatMap((c, i): string[] => {
    if (Array.isArray(c)) return [`component ${i + 1} is a list of components, not one (a consumer group's members?): draw the design with compose(...), which takes lists of parts`];
    if (typeof c !== 'object' || c === null) return [`component ${i + 1} is ${JSON.stringify(c) ?? typeof c}, not a component`];
    if (typeof c.name !== 'string' || !(c.machine as { transition?: unknown } | undefined)?.transition) return [`component ${JSON.stringify(c.name)} has no machine`];
    return [];
  });
}

/** Every name once, every peer present, every component restored with another present and restorable. */
function drawingProblems(design: DesignIndex): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const n of design.names) {
    if (seen.has(n)) problems.push(`the design has two components named ${n}`);
    seen.add(n);
  }
  for (const c of design.components) {
    for (const peer of c.peers ?? []) {
      if (!seen.has(peer)) problems.push(`${c.name} talks to ${peer}, which the design does not have${didYouMean(peer, design.names)}; components: ${design.names.join(', ')}`);
    }
    // The groups it says it joins: each names a broker of the design, a group and a message type.
    const sub = (c as { subscribes?: unknown }).subscribes;
    for (const m of sub === undefined ? [] : Array.isArray(sub) ? sub : [sub]) {
      const ok = typeof m === 'object' && m !== null && ['from', 'group', 'type'].every((k) => typeof (m as Record<string, unknown>)[k] === 'string');
      if (!ok) problems.push(`${c.name}'s subscribes is ${JSON.stringify(m) ?? typeof m}, not a membership: give { from: <broker>, group: <group>, type: 'broker.deliver' } (groupMember(broker, group)), or a list of them`);
      else if (!seen.has((m as { from: string }).from)) problems.push(`${c.name} says it joins a group at ${(m as { from: string }).from}, which the design does not have${didYouMean((m as { from: string }).from, design.names)}; components: ${design.names.join(', ')}`);
    }
    // Components restored with another are set back to their own snapshots, so each must have one.
    for (const other of c.restoresWith ?? []) {
      const found = design.component(other);
      if (found === undefined) problems.push(`${c.name} is restored with ${other}, which the design does not have${didYouMean(other, design.names)}; components: ${design.names.join(', ')}`);
      else if (found.restore === undefined) problems.push(`${c.name} is restored with ${other}, which has no snapshot to restore (make it restorable)`);
    }
  }
  return problems;
}

/** The tables a claim's repair queries name, by the part of the claim that names them. */
export function claimTables(claim: Claim): readonly (readonly [string, ClaimTable])[] {
  const t = claim.tables;
  if (t === undefined) return [];
  const one = (['effect', 'source', 'causes', 'history', 'replays', 'conflicts', 'revisions'] as const).flatMap((k) => (t[k] ? [[`tables.${k}`, t[k]] as const] : []));
  return [...one, ...(t.unresolved ?? []).map((u, i) => [`tables.unresolved[${i}]`, u] as const)];
}

/**
 * Each table a claim's repair queries name is a table some component holds or a view the claim
 * declares. A design whose components declare no tables (hand-drawn databases) says nothing to
 * check against.
 */
function tableProblems(claim: Claim, design: DesignIndex): string[] {
  if (design.tables.length === 0) return [];
  const views = (claim.tables?.views ?? []).map((v) => v.table);
  const known = [...design.tables, ...views];
  const named = claimTables(claim)
    .filter(([, t]) => !known.includes(t.table))
    .map(([where, t]) => `claim ${JSON.stringify(claim.effect)}: ${where} names table ${t.table}, which no component of the design holds and no view of the claim declares${didYouMean(t.table, known)}; tables: ${known.join(', ')}`);
  return [...named, ...sqlProblems(claim)];
}

/**
 * A repair query's condition and key expressions are SQL pasted into the query a report prints:
 * one with a bracket or a quote left open would print a query no database can run.
 */
function sqlProblems(claim: Claim): string[] {
  const problems: string[] = [];
  for (const [where, t] of claimTables(claim)) {
    for (const [part, sql] of [...(t.where === undefined ? [] : [['where', t.where] as const]), ...t.key.filter((k) => k.includes('$') || k.includes('(') || k.includes("'")).map((k) => ['key', k] as const)]) {
      const open = unbalanced(sql);
      if (open !== undefined) problems.push(`claim ${JSON.stringify(claim.effect)}: ${where}.${part} ${JSON.stringify(sql)} ${open}`);
    }
  }
  return problems;
}

/** What an SQL fragment gets wrong with its quotes and brackets, as a phrase; undefined when it closes all it opens. */
function unbalanced(sql: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'") {
      // A quoted string ends at the next quote not doubled ('it''s'), nor escaped in an E'' string (E'it\'s').
      const escapes = /[eE]/.test(sql[i - 1] ?? '');
      for (i++; i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'"); i++) if (sql[i] === "'" || (escapes && sql[i] === '\\')) i++;
      if (i >= sql.length) return 'leaves a quoted string open';
    } else if (c === '"') {
      // A quoted identifier may hold any bracket or quote.
      i = sql.indexOf('"', i + 1);
      if (i < 0) return 'leaves a quoted name open';
    } else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'closes a bracket it never opened';
  }
  return depth > 0 ? 'leaves a bracket open' : undefined;
}
