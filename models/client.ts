// The caller of the source service: a user's device or an upstream service issuing commands
// one after another. When a reply does not come in time it may retry, with the same
// idempotency key (the checkout key of the seeds, stable across retries) or with a fresh one
// (a new key per attempt, so the server cannot tell a retry from new intent). Every reply it
// gets is kept, so a checker can see whether a retry returned the recorded outcome.
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, sizedValue, z } from '../src/scenario/options.ts';

/** One unit of user intent: change `aggregate_id` to `status` at `version`, carrying `data`. */
export interface Command {
  /** What the user means; the same across retries and the claim's notion of "same intent". */
  readonly intent: string;
  readonly aggregate_id: string;
  readonly version: number;
  readonly status: string;
  readonly event_type: string;
  readonly data?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The checkout key a keyed client sends for this command; the intent when absent. A command
   * that names another command's key is a different intent under an existing key.
   */
  readonly key?: string;
}

export type CommandEvent = {
  readonly type: 'cmd';
  readonly ref: string;
  /** The idempotency key the client sends; absent when the design has none. */
  readonly key?: string;
  readonly command: Command;
};

export type CommandReply = { type: 'cmd.reply'; ref: string; ok: boolean; outcome: string; replayed?: boolean } & FromPeer;

export interface ClientReplyRecord {
  readonly intent: string;
  readonly key: string | null;
  readonly ok: boolean;
  readonly outcome: string;
  readonly replayed: boolean;
}

export interface ClientDurable {
  readonly next: number;
  readonly replies: readonly ClientReplyRecord[];
  /** The intents of the commands it has sent at least once, in order. */
  readonly attempted: readonly string[];
}

export interface ClientInput {
  readonly target: string;
  readonly commands: readonly Command[];
  /** none: one attempt; stableKey: retry with the same key; freshKey: retry with a new key. */
  readonly retry?: 'none' | 'stableKey' | 'freshKey';
  /** Whether commands carry an idempotency key at all. */
  readonly keyed?: boolean;
  readonly timeoutTicks?: number;
  readonly maxAttempts?: number;
  /**
   * Keep asking with the same key, past `maxAttempts`, until the service gives a definitive
   * answer (the order, or a refusal): a failure or a timeout says nothing about a commit that
   * may have landed, so a client that must know does not stop there.
   */
  readonly untilAnswered?: boolean;
  readonly gapTicks?: number;
  readonly durable?: ClientDurable;
}

type Ctx = {
  durable: ClientDurable;
  input: ClientInput;
  attempt: number;
  ref: string;
};

/** The idempotency key an attempt carries: none, the intent (stable across retries) or the attempt's own ref (fresh). */
function keyFor(input: ClientInput, command: Command, ref: string): string | undefined {
  if (!input.keyed) return undefined;
  return input.retry === 'freshKey' ? ref : (command.key ?? command.intent);
}

const mayRetry = (ctx: Ctx) => (ctx.input.retry ?? 'none') !== 'none' && (ctx.input.untilAnswered === true || ctx.attempt < (ctx.input.maxAttempts ?? 3));

export const clientMachine = setup({
  types: { context: {} as Ctx, input: {} as ClientInput, events: {} as CommandReply | PeerCrashed, emitted: {} as Emitted },
  delays: {
    gap: ({ context }) => context.input.gapTicks ?? 5,
    timeout: ({ context }) => context.input.timeoutTicks ?? 60,
  },
  guards: {
    allSent: ({ context }) => context.durable.next >= context.input.commands.length,
    mayRetry: ({ context }) => mayRetry(context),
    isCurrent: ({ context, event }) => event.type === 'cmd.reply' && event.ref === context.ref,
  },
  actions: {
    sendCommand: enqueueActions(({ context, enqueue }) => {
      const command = context.input.commands[context.durable.next]!;
      const attempt = context.attempt + 1;
      const ref = `${command.intent}#${attempt}`;
      const key = keyFor(context.input, command, ref);
      const attempted = context.durable.attempted.includes(command.intent) ? context.durable.attempted : [...context.durable.attempted, command.intent];
      enqueue.assign({ attempt, ref, durable: { ...context.durable, attempted } });
      enqueue.emit(send(context.input.target, { type: 'cmd', ref, command, ...(key === undefined ? {} : { key }) }));
    }),
    record: assign(({ context, event }) => {
      if (event.type !== 'cmd.reply') return {};
      const command = context.input.commands[context.durable.next]!;
      const key = keyFor(context.input, command, event.ref) ?? null;
      const reply: ClientReplyRecord = { intent: command.intent, key, ok: event.ok, outcome: event.outcome, replayed: event.replayed ?? false };
      return { durable: { ...context.durable, replies: [...context.durable.replies, reply] } };
    }),
    advance: assign(({ context }) => ({ durable: { ...context.durable, next: context.durable.next + 1 }, attempt: 0 })),
  },
}).createMachine({
  id: 'client',
  context: ({ input }) => ({ durable: input.durable ?? { next: 0, replies: [], attempted: [] }, input, attempt: 0, ref: '' }),
  initial: 'pacing',
  states: {
    pacing: {
      always: { guard: 'allSent', target: 'done' },
      after: { gap: { target: 'awaitingReply', actions: 'sendCommand' } },
    },
    awaitingReply: {
      on: {
        'cmd.reply': [
          // A failed attempt that may be retried is retried; a refusal (a conflict) is an answer,
          // not a failure, and like anything else it ends this command.
          { guard: ({ context, event }) => event.ref === context.ref && !event.ok && event.outcome !== 'conflict' && mayRetry(context), target: 'retrying', actions: 'record' },
          { guard: 'isCurrent', target: 'pacing', actions: ['record', 'advance'] },
        ],
      },
      after: { timeout: [{ guard: 'mayRetry', target: 'retrying' }, { target: 'pacing', actions: 'advance' }] },
    },
    retrying: { after: { 1: { target: 'awaitingReply', actions: 'sendCommand' } } },
    done: { tags: ['idle'] },
  },
});

/** The client's options as a design draws it; durations in their units. */
export const ClientOptions = z.strictObject({
  ...componentFields,
  target: z.string().optional(),
  /** The commands it sends, given the workload size. */
  commands: z.custom<(size: number) => readonly Command[]>((v) => typeof v === 'function'),
  retry: z.enum(['none', 'stableKey', 'freshKey']).optional(),
  keyed: z.boolean().optional(),
  /** How long it waits for a reply (60 ticks). */
  timeout: duration.optional(),
  maxAttempts: z.number().int().min(1).optional(),
  untilAnswered: z.boolean().optional(),
  /** How long it waits between commands (5 ticks). */
  gap: duration.optional(),
});

/** A command as a workload gives it: the fields of `Command`, and no other. */
const CommandSchema = z.strictObject({
  intent: z.string(),
  aggregate_id: z.string(),
  version: z.number(),
  status: z.string(),
  event_type: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  key: z.string().optional(),
});

/** A client sending commands to a service, named `client` unless the design names it. */
export function client(options: z.input<typeof ClientOptions>): ComponentBuilder {
  const o = parseOptions('client', ClientOptions, options);
  const name = o.name ?? 'client';
  const target = o.target ?? 'source';
  return ({ size, time }) => ({
    name,
    machine: clientMachine,
    process: false,
    peers: [target],
    input: {
      target,
      commands: sizedValue(`${name} option commands`, z.array(CommandSchema), o.commands, size),
      ...given({
        retry: o.retry,
        keyed: o.keyed,
        timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
        maxAttempts: o.maxAttempts,
        untilAnswered: o.untilAnswered,
        gapTicks: ticksOf(time, `${name} option gap`, o.gap),
      }),
    },
    ...common(time, name, o),
  });
}
