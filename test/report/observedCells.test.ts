// Every cell of a failure-window row is read off the row's representative run: the retry owner
// shown is the one the run's trace shows re-sending the work (or replaying it from a checkpoint),
// a lost effect is owned by nobody unless a re-send is in the trace, a declared note is shown only
// where it does not contradict the run, and the guards are the ones that run fired more often
// than the fault-free run did. The whole catalogue's rows are checked in test/e2e/catalogue.test.ts.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/scenario/catalogue.ts';
import { check } from '../../src/modes/check/check.ts';
import { formatPlace } from '../../src/faults/place.ts';
import { componentNames, contradicts, declaredOwner, duplicateGuardText, observedOwner, retryOwnerText, windowCells } from '../../src/report/windowCells.ts';
import { faultDuplicated, faultGuardsOf } from '../../src/modes/windowRow.ts';
import { runWindows, type WindowRow } from '../../src/modes/windows.ts';
import type { Note } from '../../src/kernel/runEvents.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

describe('mercury rows', () => {
  const row = (result: ReturnType<typeof runWindows>, window: string) => result.rows.find((r) => r.fault === 'crash' && r.place.kind === 'window' && `${r.place.component}.${r.place.state}` === window)!;

  it('commit-first: the lost order is owned by nobody, and the end state shows it', () => {
    const result = runWindows(commitFirst);
    const r = row(result, 'source.afterSourceCommit');
    expect(r.outcome).toBe('lost effect');
    expect(r.retry).toEqual({ kind: 'nobody' });
    const cells = windowCells(r, componentNames(result));
    expect(cells.evidence).toContain('at the end: o-1|1 committed in orders, missing from reservations');
    expect(cells.repairQuery).toBe("SELECT DISTINCT s.order_id FROM orders s WHERE NOT EXISTS (SELECT 1 FROM reservations e WHERE e.order_id = s.order_id AND e.reservation_version = 1) AND s.status = 'ACCEPTED'; -- finds o-1|1");
    // The crash while committing loses the order's event too: the client here makes one attempt.
    const committing = row(result, 'source.committing');
    expect(committing.outcome).toBe('lost effect');
    expect(committing.retry).toEqual({ kind: 'nobody' });
    expect(windowCells(committing, componentNames(result)).retryOwner).toMatch(/^nobody: the lost work was never sent again · nobody: the client makes one attempt/);
  });

  it('outbox: a lost publish is re-sent by the relay, and a row that held gets a check', () => {
    const result = runWindows(outbox);
    const lost = result.rows.find((r) => r.fault === 'lose' && r.place.kind === 'point' && r.place.type === 'broker.publish')!;
    expect(lost.retry).toMatchObject({ kind: 'resent', component: 'relay', message: 'broker.publish' });
    const cells = windowCells(row(result, 'relay.recordingProgress'), componentNames(result));
    expect(cells.retryOwner).not.toMatch(/relay poll/);
    expect(cells.repairQuery).toMatch(/^check: SELECT /);
  });

  it('a declared note is shown only beside the component the run observed', () => {
    const note = { retryOwner: 'client retry' };
    expect(retryOwnerText({ retry: { kind: 'nobody' }, note }, ['client', 'source'])).toBe('nobody: the lost work was never sent again');
    expect(retryOwnerText({ retry: { kind: 'resent', component: 'client', message: 'cmd', to: 'source', tick: 9 }, note }, ['client', 'source'])).toBe('client: sent cmd to source again (t=9) · client retry');
  });
});

describe('when a declared note contradicts its run', () => {
  const names = ['broker', 'caller', 'client', 'consumer', 'provider', 'source'];
  const resent = (component: string) => ({ kind: 'resent' as const, component, message: 'm', to: 'x', tick: 1 });
  const at = (component: string) => ({ kind: 'window' as const, component, state: 's' });

  it('agrees when the note names the component the run showed, and contradicts when it names another', () => {
    expect(contradicts({ retry: resent('client'), note: { retryOwner: 'client retry' } }, names)).toBe(false);
    expect(contradicts({ retry: resent('broker'), note: { retryOwner: 'client retry' } }, names)).toBe(true);
    expect(retryOwnerText({ retry: resent('broker'), note: { retryOwner: 'client retry' } }, names)).toBe('broker: sent m to x again (t=1)');
  });

  it('reads "itself" as the component whose window the note is on', () => {
    const group = ['broker', 'consumer1', 'consumer2'];
    expect(declaredOwner('the consumer itself, subscribing again', group, 'consumer2')).toBe('consumer2');
    expect(declaredOwner('broker redelivery (while it lives, the handler itself)', group, 'consumer2')).toBe('broker');
    expect(contradicts({ retry: resent('consumer2'), note: { retryOwner: 'the consumer itself, subscribing again' }, place: at('consumer2') }, group)).toBe(false);
    expect(contradicts({ retry: resent('consumer1'), note: { retryOwner: 'the consumer itself, subscribing again' }, place: at('consumer2') }, group)).toBe(true);
  });

  it('takes "nobody" as agreeing with any run in which nothing was sent again', () => {
    expect(contradicts({ retry: { kind: 'none needed' }, note: { retryOwner: 'nobody needed: the relay publishes it' } }, names)).toBe(false);
    expect(contradicts({ retry: { kind: 'nobody' }, note: { retryOwner: 'nobody: the intent lived in memory' } }, names)).toBe(false);
    expect(contradicts({ retry: resent('client'), note: { retryOwner: 'nobody needed: the relay publishes it' } }, names)).toBe(true);
  });

  it('lets a note name who would retry where there was nothing to take up, but not where work was lost', () => {
    const note = { retryOwner: 'caller timeout (the queued call is lost)' };
    expect(contradicts({ retry: { kind: 'none needed', idle: true }, note }, names)).toBe(false);
    expect(retryOwnerText({ retry: { kind: 'none needed', idle: true }, note }, names)).toBe('none needed: the crash interrupted no work · caller timeout (the queued call is lost)');
    // The work it cut short had been done already (a duplicate it was skipping): no evidence either way.
    expect(contradicts({ retry: { kind: 'none needed' }, note }, names)).toBe(false);
    expect(contradicts({ retry: { kind: 'nobody', idle: true }, note }, names)).toBe(false);
    expect(contradicts({ retry: { kind: 'nobody' }, note }, names)).toBe(true);
    expect(contradicts({ retry: resent('broker'), note }, names)).toBe(true);
  });

  it('drops a note saying a guard suppresses the repeat from a row whose run committed the repeat', () => {
    const note = { retryOwner: 'broker redelivery from the committed offset (the effect key suppresses the repeat)' };
    const broker = resent('broker');
    expect(contradicts({ retry: broker, note, outcome: 'duplicate effect' }, names)).toBe(true);
    expect(retryOwnerText({ retry: broker, note, outcome: 'duplicate effect' }, names)).toBe('broker: sent m to x again (t=1)');
    // Where the repeat was stopped, or something else went wrong, the note stands.
    expect(contradicts({ retry: broker, note, outcome: 'holds' }, names)).toBe(false);
    expect(contradicts({ retry: broker, note, outcome: 'lost effect', outcomes: { 'lost effect': 1, 'duplicate effect': 1 } }, names)).toBe(true);
    expect(contradicts({ retry: broker, note, outcome: 'lost effect' }, names)).toBe(false);
    expect(contradicts({ retry: broker, note: { retryOwner: 'broker redelivery from the committed offset' }, outcome: 'duplicate effect' }, names)).toBe(false);
    expect(contradicts({ retry: broker, note: { retryOwner: 'broker redelivery (nothing suppresses the repeat: the effect has no key of its own)' }, outcome: 'duplicate effect' }, names)).toBe(false);
  });

  it('leaves a row whose fault never struck, or that has no note, uncontradicted', () => {
    expect(contradicts({ retry: undefined, note: { retryOwner: 'client retry' } }, names)).toBe(false);
    expect(contradicts({ retry: resent('broker'), note: undefined }, names)).toBe(false);
  });
});

describe('what a run shows about the retry', async () => {
  const catalogue = await loadCatalogue();
  const crashRow = (name: string, window: string) => {
    const result = runWindows(catalogue.find((e) => e.scenario.name === name)!.scenario);
    return result.rows.find((r) => r.fault === 'crash' && formatPlace(r.place) === window)!;
  };

  it('a crash on a provider’s answer still held the record the broker delivered, and the broker redelivers it', () => {
    expect(crashRow('carrier-key-and-lookup', 'caller.afterLocalCommit').retry).toMatchObject({ kind: 'resent', component: 'broker', message: 'broker.deliver' });
  });

  it('in a group, the broker redelivering to the other member is the retry, whatever the generation', () => {
    expect(crashRow('group-rebalance-inbox', 'consumer1.received').retry).toMatchObject({ kind: 'resent', component: 'broker', to: 'consumer2' });
    // The other member subscribing for itself is not a re-send of the crashed member's subscribe.
    expect(crashRow('group-rebalance-inbox', 'consumer1.connecting').retry).toMatchObject({ kind: 'resent', component: 'consumer1', message: 'broker.subscribe' });
  });

  it('a retry under a fresh key is still the client sending the command again', () => {
    expect(crashRow('checkout-fresh-key', 'source.committing').retry).toMatchObject({ kind: 'resent', component: 'client', message: 'cmd' });
  });

  it('a reply to the next command is not a re-send of the reply the crash cut short', () => {
    expect(crashRow('inventory-two-events-effect-key', 'source.afterSourceCommit').retry).toEqual({ kind: 'none needed' });
  });

  it('a status lookup asks after the call a provider crash cut short', () => {
    expect(crashRow('carrier-key-and-lookup', 'provider.afterExternalEffect').retry).toMatchObject({ kind: 'resent', component: 'caller', message: 'provider.status', lookup: true });
  });

  it('a crash that struck a provider holding no call interrupted no work', () => {
    expect(crashRow('carrier-key-and-lookup', 'provider.serving').retry).toEqual({ kind: 'none needed', idle: true });
  });

  it('a reply from one participant is no re-send of another participant’s reply of the same content', () => {
    // The orchestrator crashed waiting on Payments; Payments' answer (op-1, as Notifications'
    // had been) was dropped at it, and after its restart the orchestrator asked again.
    const r = crashRow('gift-saga-email-first', 'orchestrator.awaitingStep');
    expect(r.plan).toEqual([{ kind: 'crash', window: 'orchestrator.awaitingStep', occurrence: 2 }]);
    expect(r.retry).toMatchObject({ kind: 'resent', component: 'orchestrator', message: 'saga.request', to: 'payments' });
  });
});

describe('message faults and idle crashes the observer once misread', async () => {
  const catalogue = await loadCatalogue();
  const rowOf = (name: string, place: string, fault: string) => {
    const result = runWindows(catalogue.find((e) => e.scenario.name === name)!.scenario);
    return result.rows.find((r) => r.fault === fault && formatPlace(r.place) === place)!;
  };

  it('a lost reply is not re-sent by the reply to the next command, though both say the same', () => {
    // The client makes one attempt per command; the next `cmd.reply` it gets answers the next
    // command (a different order) and carries the same outcome, so nobody re-sent the lost one.
    for (const name of ['inventory-two-events-effect-key', 'ordering-per-aggregate-relay']) {
      const r = rowOf(name, 'source->client:cmd.reply', 'lose');
      expect(r.struck).toBeGreaterThan(0);
      expect(r.retry).toEqual({ kind: 'none needed' });
    }
  });

  it('a lost or late message that confirms work leaves it unconfirmed, and its sender sending it again is the retry', () => {
    const result = runWindows(outbox);
    const at = (place: string, fault: string) => result.rows.find((r) => r.fault === fault && formatPlace(r.place) === place)!;
    // The relay publishes again when the broker's acknowledgement never came, and the inbox stops the repeat.
    expect(at('broker->relay:broker.ack', 'lose')).toMatchObject({ retry: { kind: 'resent', component: 'relay', message: 'broker.publish', to: 'broker' }, guards: ['inboxKey'] });
    expect(at('broker->relay:broker.ack', 'delay').retry).toMatchObject({ kind: 'resent', component: 'relay', message: 'broker.publish' });
    // The consumer runs its transaction again when it never learned it committed, or its commit came late.
    for (const [place, fault] of [['inventoryDb->consumer:db.committed', 'lose'], ['inventoryDb->consumer:db.result', 'lose'], ['consumer->inventoryDb:db.commit', 'delay']]) {
      expect(at(place!, fault!).retry, `${place} ${fault}`).toMatchObject({ kind: 'resent', component: 'consumer', message: 'db.exec', to: 'inventoryDb' });
    }
    // A lost offset commit confirms the delivery it followed: the broker delivers it again.
    expect(at('consumer->broker:broker.commit', 'lose').retry).toMatchObject({ kind: 'resent', component: 'broker', message: 'broker.deliver', to: 'consumer' });
    // A duplicated acknowledgement arrives: nothing was left unconfirmed, and nobody re-sent.
    expect(at('broker->relay:broker.ack', 'duplicate').retry).toEqual({ kind: 'none needed' });
    expect(retryOwnerText(at('broker->relay:broker.ack', 'lose'), componentNames(result))).toMatch(/^relay: sent broker\.publish to broker again \(t=\d+\)$/);
  });

  it('a consumer or caller that had only been told it subscribed held no work, and the answer to its next subscribe is no re-send', () => {
    expect(rowOf('mercury-outbox', 'consumer.idle', 'crash').retry).toEqual({ kind: 'none needed', idle: true });
    // A caller whose crash dropped the record on its way to it: the broker's redelivery is the retry.
    expect(rowOf('carrier-key-and-lookup', 'caller.idle', 'crash').retry).toMatchObject({ kind: 'resent', component: 'broker', message: 'broker.deliver', to: 'caller' });
  });

  it('an idle consumer crash in a run that loses work elsewhere owns none of it, and the note naming the broker stands', () => {
    const r = rowOf('checkout-key-not-bound', 'consumer.idle', 'crash');
    expect(r.outcome).toBe('lost effect');
    expect(r.retry).toEqual({ kind: 'nobody', idle: true });
    expect(contradicts(r, ['broker', 'consumer'])).toBe(false);
    expect(retryOwnerText(r, ['broker', 'consumer'])).toMatch(/^nobody: the crash interrupted no work/);
    expect(contradicts({ retry: { kind: 'nobody' }, note: r.note }, ['broker', 'consumer'])).toBe(true);
  });
});

describe('the guard and duplicate cells of a row’s own run', async () => {
  const catalogue = await loadCatalogue();
  const scenarioOf = (name: string) => catalogue.find((e) => e.scenario.name === name)!.scenario;
  const rowOf = (result: { rows: readonly WindowRow[] }, place: string, fault: string) => result.rows.find((r) => r.fault === fault && formatPlace(r.place) === place)!;
  const guardNote = (guard: string, seq: number): Note => ({ tick: seq, seq, component: 'consumer', kind: 'guard', data: { guard } });

  it('names the guards in a reader\'s words, several as a sentence joins them, one no catalogue model notes by its own name', () => {
    expect(duplicateGuardText({ guards: ['inboxKey'], duplicated: false })).toBe('the inbox key');
    expect(duplicateGuardText({ guards: ['effectKey', 'localCache'], duplicated: false })).toBe('the effect key and the in-memory inbox');
    expect(duplicateGuardText({ guards: ['localCache'], duplicated: true })).toBe('the in-memory inbox caught a repeat, and the duplicate still happened');
    expect(duplicateGuardText({ guards: ['myDedup'], duplicated: false })).toBe('the guard myDedup');
    expect(duplicateGuardText({ guards: [], duplicated: false })).toBe('none');
  });

  it('counts a guard the fault called on by its hits, not by its name', () => {
    const reference = [guardNote('inboxKey', 1)];
    expect(faultGuardsOf([guardNote('inboxKey', 1), guardNote('inboxKey', 2)], reference)).toEqual(['inboxKey']);
    expect(faultGuardsOf([guardNote('inboxKey', 1)], reference)).toEqual([]);
    expect(faultGuardsOf([guardNote('versionCheck', 1), guardNote('inboxKey', 2)], reference)).toEqual(['versionCheck']);
  });

  it('shows a guard that fires without a fault where the fault made it fire more often, in windows and check mode', () => {
    // The partner redelivers once by itself, so the inbox fires once in the fault-free run; the
    // crash before the effect commits makes the broker redeliver too, and the inbox fires twice.
    const scenario = scenarioOf('dedup-horizon-covers-redelivery');
    for (const result of [runWindows(scenario), check(scenario, { faults: 1 })]) {
      const r = rowOf(result, 'consumer.committingEffect', 'crash');
      expect(r.guards, result.kind).toEqual(['inboxKey']);
      const cells = windowCells(r, componentNames(result));
      expect(cells.duplicatePossible, result.kind).toBe('yes');
      expect(cells.duplicateGuard, result.kind).toBe('the inbox key');
    }
  }, 60_000);

  it('does not name a guard as suppressing a duplicate its run still committed', () => {
    // Restoring the older checkpoint re-commits the restored epoch, which the sink recognises,
    // then replays the windows since into new epochs, which it cannot: readers see them twice.
    const r = rowOf(runWindows(scenarioOf('stream-transactional-sink-older-checkpoint')), 'device1.done', 'restore');
    expect(r.outcome).toBe('duplicate effect');
    expect(r.guards).toEqual(['epochCommitted']);
    expect(r.duplicated).toBe(true);
    const cells = windowCells(r, []);
    expect(cells.duplicatePossible).toBe('yes');
    expect(cells.duplicateGuard).toBe('the sink’s committed epoch caught a repeat, and the duplicate still happened');
  });

  it('takes a duplicate the fault-free run commits as well for no fault’s doing', () => {
    const dup = (count: number) => ({ violation: 'duplicate effect' as const, effect: 'alert', key: 'w0', count });
    expect(faultDuplicated([dup(2)], [])).toBe(true);
    expect(faultDuplicated([dup(2)], [dup(2)])).toBe(false);
    expect(faultDuplicated([dup(3)], [dup(2)])).toBe(true);
    expect(faultDuplicated([{ ...dup(2), key: 'w1' }], [dup(2)])).toBe(true);
    expect(duplicateGuardText({ guards: ['resultKey'], duplicated: false })).toBe('the sink’s result key');
    expect(duplicateGuardText({ guards: [], duplicated: true })).toBe('none');
  });
});

describe('a stream operator replaying from its checkpoint', async () => {
  const catalogue = await loadCatalogue();
  const rowOf = (name: string, place: string, fault: string) => runWindows(catalogue.find((e) => e.scenario.name === name)!.scenario).rows.find((r) => r.fault === fault && formatPlace(r.place) === place)!;

  it('owns the retry of the posts a crash cut short, re-made from the checkpoint’s positions', () => {
    // The crash loses the acknowledgement of a post the sink already has; the restart restores
    // the checkpoint, reads the log again from its positions and posts the window again.
    const r = rowOf('stream-checkpoint-external-sink', 'aggregator.emitting', 'crash');
    expect(r.outcome).toBe('duplicate effect');
    expect(r.retry).toMatchObject({ kind: 'resent', component: 'aggregator', message: 'sink.post', to: 'sink', replay: { from: 'log', basis: 'checkpoint' } });
    expect(observedOwner(r)).toBe('aggregator');
    expect(retryOwnerText(r)).toMatch(/^aggregator: replayed log from its checkpoint's positions \(t=\d+\) and sent sink\.post to sink again \(t=\d+\)$/);
  });

  it('owns the retry after a restore to an older checkpoint, read from the snapshot’s positions', () => {
    const r = rowOf('stream-transactional-sink-older-checkpoint', 'device1.done', 'restore');
    expect(r.retry).toMatchObject({ kind: 'resent', component: 'aggregator', message: 'sink.prepare', to: 'sink', replay: { from: 'log', basis: 'snapshot' } });
    expect(retryOwnerText(r)).toMatch(/^aggregator: replayed log from its snapshot's positions/);
  });

  it('is not read into a consumer that subscribes again and gets the next record', () => {
    // The offset was committed before the effect: the broker never redelivers, and the consumer's
    // next effect statement is for the next record, not the lost one's replay.
    const r = rowOf('inventory-ack-before-commit', 'consumer.writingEffect', 'crash');
    expect(r.outcome).toBe('lost effect');
    expect(r.retry).toEqual({ kind: 'nobody' });
  });
});
