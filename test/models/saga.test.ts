// The gift purchase saga of seed 004 as small worlds: the orchestrator and its three
// participants. Each test varies one option (email position, declined capture, a participant's
// idempotency) or strikes one fault, and checks the saga log and the participants' records, so
// an option that did nothing would leave the records unchanged.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { restingStates } from '../../src/run/failureWindows.ts';
import { World } from '../../src/run/world.ts';
import { giftEmailClaim, giftEmailOnceClaim, giftPurchases, giftSaga } from '../../models/designs/giftSaga.ts';
import { defineScenario } from '../../src/scenario/scenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import { orchestratorMachine, sagaPlan, type EmailStep, type GiftPurchase, type OrchestratorDurable } from '../../models/orchestrator.ts';
import { participantMachine, participantOperations, type ParticipantDurable } from '../../models/participant.ts';
import { MachineDriver } from './machineDriver.ts';

interface Setup {
  readonly emailStep?: EmailStep;
  readonly purchases?: readonly GiftPurchase[];
  readonly emailIdempotent?: boolean;
  readonly plan?: FaultPlan;
}

const ACCEPTED: readonly GiftPurchase[] = [{ id: 'g-1', captureDeclined: false }];
const DECLINED: readonly GiftPurchase[] = [{ id: 'g-1', captureDeclined: true }];

/** Every window any run of this file entered, to check the machines' coverage at the end. */
const entered = new Set<string>();

function run(s: Setup) {
  const purchases = s.purchases ?? ACCEPTED;
  const build = giftSaga({ emailStep: s.emailStep ?? 'last', purchases: () => purchases, ...(s.emailIdempotent === undefined ? {} : { emailIdempotent: s.emailIdempotent }) });
  const world = new World(build({ size: purchases.length }, SECONDS), { seed: 1, plan: s.plan ?? [] });
  const result = world.run();
  for (const w of result.windowCounts.keys()) entered.add(w);
  const ops = (name: string) => participantOperations(world.durable<ParticipantDurable>(name)).map((op) => `${op.action} ${op.saga}${op.ok ? '' : ' declined'}`);
  const at = (name: string, action: string) => participantOperations(world.durable<ParticipantDurable>(name)).find((op) => op.action === action)?.at ?? -1;
  const notes = world.trace.events.filter((e) => e.kind === 'note').map((e) => e.data as { kind: string; data?: Record<string, unknown> });
  return { world, result, log: world.durable<OrchestratorDurable>('orchestrator'), ops, at, notes };
}

describe('gift purchase saga', () => {
  it('email last, capture accepted: every step once, the email after the capture, the order confirmed', () => {
    const r = run({ emailStep: 'last' });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.log.sagas['g-1']).toEqual({ order: 'CONFIRMED', status: 'completed', done: ['authorise', 'reserve', 'capture', 'confirm', 'email'], undone: [] });
    expect(r.ops('payments')).toEqual(['authorise g-1', 'capture g-1']);
    expect(r.ops('inventory')).toEqual(['reserve g-1']);
    expect(r.ops('notifications')).toEqual(['email g-1']);
    expect(r.at('notifications', 'email')).toBeGreaterThan(r.at('payments', 'capture'));
    expect(r.world.stateOf('orchestrator')).toBe('idle');
  });

  it('email first, capture accepted: the same records, but the email goes out before the card is authorised', () => {
    const r = run({ emailStep: 'first' });
    expect(r.log.sagas['g-1']).toEqual({ order: 'CONFIRMED', status: 'completed', done: ['email', 'authorise', 'reserve', 'capture', 'confirm'], undone: [] });
    expect(r.ops('notifications')).toEqual(['email g-1']);
    expect(r.at('notifications', 'email')).toBeLessThan(r.at('payments', 'authorise'));
    expect(sagaPlan('first')).not.toEqual(sagaPlan('last'));
  });

  it('email last, capture declined: void and release run newest first, the order is cancelled, nothing is emailed', () => {
    const r = run({ emailStep: 'last', purchases: DECLINED });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.log.sagas['g-1']).toEqual({ order: 'CANCELLED', status: 'compensated', done: ['authorise', 'reserve'], failed: 'capture', undone: ['release', 'void'] });
    expect(r.ops('payments')).toEqual(['authorise g-1', 'capture g-1 declined', 'void g-1']);
    expect(r.ops('inventory')).toEqual(['reserve g-1', 'release g-1']);
    expect(r.ops('notifications')).toEqual([]);
    expect(r.notes.some((n) => n.kind === 'saga.cannotUndo')).toBe(false);
  });

  it('email first, capture declined: the same compensations, and the email that cannot be undone stays sent', () => {
    const r = run({ emailStep: 'first', purchases: DECLINED });
    expect(r.log.sagas['g-1']).toEqual({ order: 'CANCELLED', status: 'compensated', done: ['email', 'authorise', 'reserve'], failed: 'capture', undone: ['release', 'void'] });
    expect(r.ops('notifications')).toEqual(['email g-1']);
    expect(r.notes.find((n) => n.kind === 'saga.cannotUndo')?.data).toEqual({ saga: 'g-1', steps: ['email'] });
  });

  it('runs purchases one after another; the default workload declines every second capture', () => {
    expect(giftPurchases(3).map((p) => p.captureDeclined)).toEqual([false, true, false]);
    const r = run({ purchases: giftPurchases(2) });
    expect(r.log.next).toBe(2);
    expect(Object.fromEntries(Object.entries(r.log.sagas).map(([id, s]) => [id, s.order]))).toEqual({ 'g-1': 'CONFIRMED', 'g-2': 'CANCELLED' });
    expect(r.at('payments', 'authorise')).toBeLessThan(participantOperations(r.world.durable<ParticipantDurable>('payments')).find((op) => op.saga === 'g-2')!.at);
  });

  it('a lost capture reply is repeated under the same key, and Payments answers from its record', () => {
    const plan: FaultPlan = [{ kind: 'lose', point: 'payments->orchestrator:saga.reply', occurrence: 2 }];
    const r = run({ plan });
    expect(r.result.strikes).toHaveLength(1);
    expect(r.ops('payments')).toEqual(['authorise g-1', 'capture g-1']);
    expect(r.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'participantKey' && n.data['action'] === 'capture')).toBe(true);
    expect(r.log.sagas['g-1']!.order).toBe('CONFIRMED');
  });

  it('a lost email reply sends a second email unless the email provider honours the key', () => {
    const plan: FaultPlan = [{ kind: 'lose', point: 'notifications->orchestrator:saga.reply', occurrence: 1 }];
    expect(run({ plan }).ops('notifications')).toEqual(['email g-1', 'email g-1']);
    expect(run({ plan, emailIdempotent: true }).ops('notifications')).toEqual(['email g-1']);
  });

  it('an orchestrator crash after a reply resumes from the saga log and asks again under the same key', () => {
    // Occurrence 3 is the capture's reply: in hand, not yet in the log.
    const plan: FaultPlan = [{ kind: 'crash', window: 'orchestrator.afterStepReply', occurrence: 3 }];
    const r = run({ plan });
    expect(r.result.strikes).toHaveLength(1);
    expect((r.result.strikes[0]!.durable['orchestrator'] as OrchestratorDurable).sagas['g-1']!.done).toEqual(['authorise', 'reserve']);
    expect(r.ops('payments')).toEqual(['authorise g-1', 'capture g-1']);
    expect(r.log.sagas['g-1']).toEqual(run({}).log.sagas['g-1']);
  });

  it('an orchestrator crash during compensation finishes the compensations without repeating one', () => {
    const plan: FaultPlan = [{ kind: 'crash', window: 'orchestrator.afterCompensationReply', occurrence: 1 }];
    const r = run({ purchases: DECLINED, plan });
    expect(r.result.strikes).toHaveLength(1);
    expect(r.log.sagas['g-1']).toMatchObject({ order: 'CANCELLED', undone: ['release', 'void'] });
    expect(r.ops('inventory')).toEqual(['reserve g-1', 'release g-1']);
    expect(r.ops('payments')).toEqual(['authorise g-1', 'capture g-1 declined', 'void g-1']);
  });

  it('a participant crash after it performed leaves the orchestrator an ambiguous timeout that the key resolves', () => {
    const plan: FaultPlan = [{ kind: 'crash', window: 'inventory.afterEffect', occurrence: 1 }];
    const r = run({ plan });
    expect(r.result.strikes).toHaveLength(1);
    expect(r.ops('inventory')).toEqual(['reserve g-1']);
    expect(r.log.sagas['g-1']!.order).toBe('CONFIRMED');
  });

  it('the runs above enter every resting state of the orchestrator and participant machines', () => {
    for (const s of restingStates(orchestratorMachine)) expect(entered.has(`orchestrator.${s}`), s).toBe(true);
    for (const s of restingStates(participantMachine)) {
      expect(['payments', 'inventory', 'notifications'].some((p) => entered.has(`${p}.${s}`)), s).toBe(true);
    }
  });
});

describe('orchestrator: a refused compensation is not done', () => {
  // No participant of today's designs refuses a compensation; an orchestrator that logged a
  // refused refund as done would end the saga compensated with the capture standing.
  it('keeps a refused compensation pending in the saga log and asks for it again', () => {
    const durable: OrchestratorDurable = { next: 0, sagas: { 'g-1': { order: 'PENDING', status: 'compensating', done: ['authorise'], failed: 'reserve', undone: [] } } };
    const d = new MachineDriver(orchestratorMachine, { purchases: DECLINED, emailStep: 'last', durable });
    d.advance(1);
    expect(d.state).toBe('awaitingCompensation');
    const ask = d.sent.at(-1)!;
    expect(`${ask.to} ${String(ask.event['action'])}`).toBe('payments void');
    d.receive({ type: 'saga.reply', ref: String(ask.event['ref']), ok: false, op_id: 'op-1' }, 'payments');
    d.advance(1);
    const log = () => (d.snapshot.context as { durable: OrchestratorDurable }).durable.sagas['g-1']!;
    expect(log().undone).toEqual([]);
    expect(log().status).toBe('compensating');
    expect(d.notes.map((n) => n.kind)).toContain('saga.compensationRefused');
    d.advance(1);
    expect(d.state).toBe('awaitingCompensation');
    expect(String(d.sent.at(-1)!.event['action'])).toBe('void');
    d.receive({ type: 'saga.reply', ref: String(d.sent.at(-1)!.event['ref']), ok: true, op_id: 'op-1' }, 'payments');
    d.advance(1);
    expect(log().undone).toEqual(['void']);
  });
});

describe('the gift-code email claimed once', () => {
  const scenario = (emailIdempotent: boolean, claim: Claim) =>
    defineScenario({
      name: `gift-email-once-${emailIdempotent ? 'keyed' : 'unkeyed'}`,
      title: 'Gift saga, email last',
      source: 'test',
      lesson: 'An email repeated after a lost reply is a second email unless the provider keeps its key.',
      build: giftSaga({ emailStep: 'last', emailIdempotent }),
      workload: { size: 2 },
      claims: [claim],
      expect: { verdict: 'holds' },
    });

  it('breaks where the email provider keeps no key, which the at-least-once claim accepts', () => {
    const once = runWindows(scenario(false, giftEmailOnceClaim));
    expect(once.judgement).toMatchObject({ verdict: 'violated', found: ['duplicate effect'] });
    expect(runWindows(scenario(false, giftEmailClaim)).judgement.verdict).toBe('holds');
  });

  it('holds where the provider answers a repeated (saga, email) from its record', () => {
    expect(runWindows(scenario(true, giftEmailOnceClaim)).judgement.verdict).toBe('holds');
  });
});
