// A Stryker ignorer for one class of equivalent mutants in the models' guards: the test of the
// event's type inside a guard that its machine consults on that event alone. XState asks a guard
// only for the transition it is written on, and a transition under `on: { 'db.ran': … }` is taken
// only for a `db.ran`, so in `markAnswer: ({ event }) => event.type === 'db.ran' && event.ref === …`
// the first test is always true when the guard runs: it is there to narrow the event's type for
// the compiler. Replacing it by `true` changes nothing a run can show, so that mutant survives
// every suite, and each survivor costs a run of every test that reaches the guard.
//
// The other mutants of the same test (`false`, `!==`, an empty string) make the whole conjunction
// false, which the ConditionalExpression mutant `false` of the conjunction itself already plants,
// so ignoring the test's node loses no bug that would otherwise be planted. That is why the test
// must be one conjunct of an `&&` with others beside it: a guard that is the type test alone has
// no such twin, and is left to be mutated.
//
// The event a guard is consulted on is read from the same file: every reference to the guard's
// name must be a transition's `guard` (a name, or `{ type: name }`) written directly under
// `on: { '<event>': … }`, and all of them under the one event the test names. A guard named
// anywhere else (an `always` or `after` transition, a variable, another string) is not judged, and
// its mutants are planted as usual. test/mutation/guardEventIgnorer.test.ts holds this reading to
// the machines themselves: each guard it ignores a test in is, in the built machine, on that
// event's transitions alone.

import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

export const GUARD_EVENT_IGNORER = 'guard-event-type';

/** The value of a string literal, seen through `as const`; undefined for anything else. */
function stringOf(node) {
  if (node == null) return undefined;
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return stringOf(node.expression);
  return node.type === 'StringLiteral' ? node.value : undefined;
}

/** The name of an object property's key, written as an identifier or a string. */
function keyOf(property) {
  if (property.computed) return undefined;
  const key = property.key;
  return key.type === 'Identifier' ? key.name : stringOf(key);
}

const isProperty = (node) => node?.type === 'ObjectProperty';

/**
 * The event a `guard` property's transition is taken on, when the transition is written directly
 * under `on: { '<event>': … }` (alone or in a list of alternatives); undefined otherwise.
 * `ancestors` runs from the program down to the `guard` property's own object.
 */
function eventOfTransition(ancestors) {
  let i = ancestors.length - 1;
  if (ancestors[i]?.type !== 'ObjectExpression') return undefined;
  i--;
  if (ancestors[i]?.type === 'ArrayExpression') i--;
  const eventProperty = ancestors[i];
  const on = ancestors[i - 2];
  if (!isProperty(eventProperty) || ancestors[i - 1]?.type !== 'ObjectExpression' || !isProperty(on) || keyOf(on) !== 'on') return undefined;
  return keyOf(eventProperty);
}

/** The guard a `guard` property names: `guard: 'name'` or `guard: { type: 'name', … }`. */
function guardNamed(value) {
  const direct = stringOf(value);
  if (direct !== undefined) return { name: direct, literal: value.type === 'StringLiteral' ? value : value.expression };
  if (value?.type !== 'ObjectExpression') return undefined;
  const type = value.properties.find((p) => isProperty(p) && keyOf(p) === 'type');
  const name = type ? stringOf(type.value) : undefined;
  return name === undefined ? undefined : { name, literal: type.value.type === 'StringLiteral' ? type.value : type.value.expression };
}

/**
 * For each string in the file, the events of the transitions that name it as their guard, with
 * `null` standing for any mention that is not such a transition's guard (a guards block's own
 * keys are no mention).
 */
export function guardEvents(program) {
  const events = new Map();
  const add = (name, event) => {
    if (!events.has(name)) events.set(name, new Set());
    events.get(name).add(event);
  };
  const recognised = new Set();
  const walk = (node, ancestors) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child, ancestors);
      return;
    }
    if (typeof node.type !== 'string') return;
    if (isProperty(node) && keyOf(node) === 'guard') {
      const named = guardNamed(node.value);
      if (named) {
        recognised.add(named.literal);
        add(named.name, eventOfTransition(ancestors) ?? null);
      }
    }
    if (node.type === 'StringLiteral' && !recognised.has(node)) {
      const parent = ancestors[ancestors.length - 1];
      const isKey = isProperty(parent) && parent.key === node;
      if (!isKey) add(node.value, null);
    }
    const next = [...ancestors, node];
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      walk(node[key], next);
    }
  };
  walk(program, []);
  return events;
}

/** The event a node tests for: `event.type === '<event>'` (either way round), else undefined. */
export function testedEvent(node) {
  if (node?.type !== 'BinaryExpression' || (node.operator !== '===' && node.operator !== '==')) return undefined;
  const isEventType = (n) =>
    n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier' && n.object.name === 'event' && n.property.type === 'Identifier' && n.property.name === 'type';
  if (isEventType(node.left)) return stringOf(node.right);
  if (isEventType(node.right)) return stringOf(node.left);
  return undefined;
}

/**
 * Why the mutants of the node at `path` are not planted, or undefined to plant them: the node is
 * a type test as the header says, in a guard consulted on that event alone.
 */
export function whyIgnored(path, eventsOf) {
  const event = testedEvent(path.node);
  if (event === undefined) return undefined;
  let top = path;
  while (top.parentPath?.node.type === 'LogicalExpression' && top.parentPath.node.operator === '&&') top = top.parentPath;
  if (top === path) return undefined;
  const arrow = top.parentPath;
  if (arrow?.node.type !== 'ArrowFunctionExpression' || arrow.node.body !== top.node) return undefined;
  const guard = arrow.parentPath;
  const block = guard?.parentPath?.parentPath;
  if (!isProperty(guard?.node) || guard.parentPath.node.type !== 'ObjectExpression' || !isProperty(block?.node) || keyOf(block.node) !== 'guards') return undefined;
  const name = keyOf(guard.node);
  const events = eventsOf(path).get(name);
  if (!events || events.size !== 1 || !events.has(event)) return undefined;
  return `the guard ${name} is consulted on '${event}' alone, so its test of the event's type is always true when it runs`;
}

/** The ignorer: the program's guard references are read once per file. */
export function guardEventIgnorer() {
  const byProgram = new WeakMap();
  const eventsOf = (path) => {
    const program = path.findParent((p) => p.isProgram()).node;
    if (!byProgram.has(program)) byProgram.set(program, guardEvents(program));
    return byProgram.get(program);
  };
  return { shouldIgnore: (path) => whyIgnored(path, eventsOf) };
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, GUARD_EVENT_IGNORER, guardEventIgnorer())];
