// Failure windows are derived from the machine definitions, never hand-listed: the outbox
// pipeline has the eight drills of seed 000 and the external call the four interruptions of 003.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import { createMachine, setup } from 'xstate';
import { designWindows, failureWindows, restingStates, ruledOutWindows } from '../../src/run/failureWindows.ts';
import { MERCURY_DRILLS, orderPipeline } from '../../models/designs/orderPipeline.ts';
import { callerMachine } from '../../models/caller.ts';
import { providerMachine } from '../../models/provider.ts';

describe('failure windows', () => {
  it('lists the eight drills of the Mercury outbox pipeline', () => {
    const windows = failureWindows(orderPipeline({ design: 'outbox' })({ size: 2 }, SECONDS));
    const drills = [
      'source.beforeSourceCommit', // before source commit
      'source.afterSourceCommit', // after source commit
      'relay.afterRelaySend', // after relay send
      'relay.afterBrokerAccept', // after broker acceptance
      'relay.afterRelayProgress', // after relay progress
      'consumer.afterInboxInsert', // after consumer inbox insert
      'consumer.afterEffectCommit', // after effect commit
      'consumer.beforeTransportProgress', // before transport progress
    ];
    for (const d of drills) expect(windows).toContain(d);
    // The constant reports and the bench use names exactly these windows.
    expect([...MERCURY_DRILLS]).toEqual(drills);
  });

  it('lists the four interruptions around an external call', () => {
    const windows = [...restingStates(callerMachine).map((s) => `caller.${s}`), ...restingStates(providerMachine).map((s) => `provider.${s}`)];
    for (const w of ['caller.beforeExternalCall', 'provider.afterExternalEffect', 'caller.afterExternalResponse', 'caller.afterLocalCommit']) {
      expect(windows).toContain(w);
    }
  });

  it('gives a new design option its own windows without listing them anywhere', () => {
    const outbox = failureWindows(orderPipeline({ design: 'outbox' })({ size: 1 }, SECONDS));
    const dual = failureWindows(orderPipeline({ design: 'dualWriteCommitFirst' })({ size: 1 }, SECONDS));
    expect(outbox.some((w) => w.startsWith('relay.'))).toBe(true);
    expect(dual.some((w) => w.startsWith('relay.'))).toBe(false);
  });

  it('skips transient states that no process can rest in', () => {
    const resting = restingStates(callerMachine);
    // The caller's decision states are left at once by an unguarded `always`: never windows.
    const transient = ['decidingLocal', 'dispatching', 'notFound'].filter((st) => JSON.stringify(callerMachine.root.states[st]?.config ?? null).includes('always'));
    expect(transient.length).toBeGreaterThan(0);
    for (const st of transient) expect(resting).not.toContain(st);
    const consumerStates = failureWindows(orderPipeline({ design: 'outbox' })({ size: 1 }, SECONDS)).filter((w) => w.startsWith('consumer.'));
    expect(consumerStates).not.toContain('consumer.applying');
  });
});

describe('windows the options rule out', () => {
  // A process that reaches `inbox` only when its options ask for one, `audit` only through a guard
  // that reads the event, `late` only after a guard that reads its context, `recovering` and
  // `reopening` only after a guard on what a restart puts in its input (read, or asked for with
  // Object.hasOwn), and `never` only behind a candidate whose option guard always holds.
  const machine = setup({
    types: { context: {} as { input: { inbox: boolean }; n: number }, input: {} as { inbox: boolean } },
    guards: {
      wantsInbox: ({ context }) => context.input.inbox,
      always: ({ context }) => context.input.inbox || !context.input.inbox,
      audited: ({ event }) => (event as { audit?: boolean }).audit === true,
      counted: ({ context }) => context.n > 0,
      resumed: ({ context }) => (context.input as { durable?: unknown }).durable !== undefined,
      restarted: ({ context }) => Object.hasOwn(context.input, 'broken'),
    },
  }).createMachine({
    context: ({ input }) => ({ input, n: 0 }),
    initial: 'idle',
    states: {
      idle: {
        on: {
          go: [{ guard: 'wantsInbox', target: 'inbox' }, { target: 'effect' }],
          check: [{ guard: 'audited', target: 'audit' }],
          count: [{ guard: 'counted', target: 'late' }],
          skip: [{ guard: 'always', target: 'effect' }, { target: 'never' }],
          // A restart passes the durable state in the input: a guard on it is no option.
          wake: [{ guard: 'resumed', target: 'recovering' }],
          reopen: [{ guard: 'restarted', target: 'reopening' }],
        },
      },
      recovering: { on: { done: 'idle' } },
      reopening: { on: { done: 'idle' } },
      inbox: { on: { done: 'effect' } },
      effect: { on: { done: 'idle' } },
      audit: { on: { done: 'idle' } },
      late: { on: { done: 'idle' } },
      never: { on: { done: 'idle' } },
    },
  });
  const spec = (inbox: boolean) => [{ name: 'p', machine, process: true, input: { inbox } }];

  it('leaves out a state every way into which a false option guard closes, and one behind an option guard that always holds', () => {
    expect([...ruledOutWindows(spec(false))].sort()).toEqual(['p.inbox', 'p.never']);
    expect([...ruledOutWindows(spec(true))]).toEqual(['p.never']);
    expect(designWindows(spec(false), () => false)).toEqual(['p.idle', 'p.recovering', 'p.reopening', 'p.effect', 'p.audit', 'p.late']);
  });

  it('keeps a state a run entered all the same, and rules nothing out of a machine the compiled driver refuses', () => {
    expect(designWindows(spec(false), (w) => w === 'p.inbox')).toEqual(['p.idle', 'p.recovering', 'p.reopening', 'p.inbox', 'p.effect', 'p.audit', 'p.late']);
    const nested = createMachine({ initial: 'a', states: { a: { initial: 'x', states: { x: {} } }, b: {} } });
    expect([...ruledOutWindows([{ name: 'q', machine: nested, process: true }])]).toEqual([]);
  });

  it('rules the inbox states out of a consumer with no inbox, and none out of one with an inbox', () => {
    const ruled = (inbox: 'none' | 'sameTx') => [...ruledOutWindows(orderPipeline({ design: 'outbox', consumer: { inbox } })({ size: 1 }, SECONDS))].filter((w) => w.startsWith('consumer.'));
    expect(ruled('none')).toEqual(expect.arrayContaining(['consumer.insertingInbox', 'consumer.afterInboxInsert']));
    expect(ruled('sameTx').filter((w) => w.includes('Inbox'))).toEqual([]);
  });
});
