// Failure windows are derived from the machine definitions, never hand-listed: the outbox
// pipeline has the eight drills of seed 000 and the external call the four interruptions of 003.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import { failureWindows, restingStates } from '../../src/run/failureWindows.ts';
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
