// Seed 003's payment capture (step 4 of "Follow the checkout across the commit boundary") as a
// design: a payment consumer records its intent, captures under the payment-intent key, asks by
// key on a timeout, and hands any capture it could not settle to a reconciler (seed 000, step 6:
// "reconcile pending/unknown states until terminal"). The workload is one capture per payment
// intent, and then an amendment: Payments re-emits pi-1 with a changed amount, a different
// intent under an existing key, which a provider that binds keys to intents must refuse.
import type { Claim } from '../../src/checkers/claims.ts';
import type { Payload } from '../broker.ts';
import type { ProviderInput } from '../provider.ts';
import type { ReconcilerInput } from '../reconciler.ts';
import { providerClaim, providerPipeline, unresolvedOutcomes, type ProviderTableNames } from './providerPipeline.ts';

export const PAYMENT_KEY = ['payment_intent_id'];

/** One capture per payment intent. */
export function captures(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({ event_id: `evt-pi-${i + 1}`, payment_intent_id: `pi-${i + 1}`, order_id: `o-${i + 1}`, amount: 1_250 * (i + 1) }));
}

/** One capture per payment intent, then pi-1 again with an amended amount. */
export function capturesWithAmendment(size: number): Payload[] {
  const first = captures(size);
  return [...first, { ...first[0]!, event_id: 'evt-pi-1-amended', amount: 1_300 }];
}

export interface PaymentCaptureOptions {
  readonly idempotency: ProviderInput['idempotency'];
  readonly reconciler?: Pick<ReconcilerInput, 'sweep'>;
  /** Whether Payments re-emits pi-1 with an amended amount (default true). */
  readonly amendment?: boolean;
  /** The servers a `restore` fault can set back (see providerPipeline's `restores`). */
  readonly restores?: readonly ('callerDb' | 'broker')[];
}

export function paymentCapture(o: PaymentCaptureOptions) {
  return providerPipeline({
    records: o.amendment === false ? captures : capturesWithAmendment,
    keyField: 'order_id',
    group: 'payments',
    // One call per delivery: a consumer that cannot settle a capture records it UNKNOWN and
    // moves on; resolving it is the reconciler's job, so the unknown path is exercised by single faults.
    caller: { effectKey: PAYMENT_KEY, sendKey: true, statusLookup: true, recordIntent: true, maxAttempts: 1 },
    provider: { idempotency: o.idempotency, statusLookup: 'byKey' },
    reconciler: { ...o.reconciler },
    ...(o.restores === undefined ? {} : { restores: [...o.restores] }),
  });
}

/** The payment provider's captures, as the export of its ledger, and Payments' capture requests, as their outbox of events. */
export const PAYMENT_TABLES: ProviderTableNames = { ledger: 'payment_captures', facts: 'capture_requests', columns: { order_id: 'text', amount: 'bigint' } };

/** One capture per payment intent, the amendment refused, and no capture left unknown. */
export const paymentCaptureClaim: Claim = {
  ...providerClaim(PAYMENT_KEY, {
    effect: 'payment capture',
    authority: "the payment provider's idempotency key, bound to the capture intent (amount, order),",
    lifetime: 'the lifetime of the payment intent',
    sameIntent: 'the recorded capture',
    differentIntent: 'is refused as a conflict; nothing is captured',
    unknownCompletion: 'a status lookup by key, and a reconciler that resolves PENDING and UNKNOWN outcomes',
  }, PAYMENT_TABLES),
  unresolved: unresolvedOutcomes(),
};
