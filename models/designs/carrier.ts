// The carrier pickup of seed 000 ("External side effects expose the edge of the transaction"):
// fulfilment receives an accepted order and books a pickup through the carrier's HTTP API. The
// records, the claims and the three carrier contracts the scenarios compare live here, so each
// scenario file states only its design.
import type { Payload } from '../broker.ts';
import type { CallerInput } from '../caller.ts';
import { providerClaim, providerPipeline, type ProviderPipelineOptions, type ProviderTableNames } from './providerPipeline.ts';

export const PICKUP_KEY = ['order_id', 'pickup_version'] as const;

/** One pickup request per accepted order, version 1. */
export function pickupRequests(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}-pickup-v1`, order_id: `o-${i + 1}`, pickup_version: 1, address: `dock ${i + 1}` }));
}

type CallerDesign = Pick<CallerInput, 'sendKey' | 'statusLookup' | 'recordIntent'> & Partial<Pick<CallerInput, 'maxAttempts'>>;

/** The fulfilment consumer and the carrier; `restores` names the servers a `restore` fault can set back, `callerDb` how fulfilment's database is restored (see providerPipeline). */
export function carrierPipeline(caller: CallerDesign, provider: ProviderPipelineOptions['provider'], restores?: ProviderPipelineOptions['restores'], callerDb?: ProviderPipelineOptions['callerDb']) {
  return providerPipeline({
    records: pickupRequests,
    keyField: 'order_id',
    group: 'fulfillment',
    caller: { effectKey: [...PICKUP_KEY], ...caller },
    provider,
    ...(restores === undefined ? {} : { restores }),
    ...(callerDb === undefined ? {} : { callerDb }),
  });
}

/** The carrier's bookings, as the export of its ledger, and fulfilment's pickup requests, as their outbox of events. */
export const PICKUP_TABLES: ProviderTableNames = { ledger: 'carrier_pickups', facts: 'pickup_requests', columns: { pickup_version: 'bigint' } };

/** What a carrier without a key does with a repeat, in the claim sentence's words. */
export const NO_KEY_REPLAY = { sameIntent: 'another booking (the carrier cannot recognise a repeat)', differentIntent: 'books another pickup' } as const;

/** The weaker contract an API without key or lookup allows: at least one attempt. */
export const pickupAttemptClaim = providerClaim([...PICKUP_KEY], {
  effect: 'carrier pickup attempt',
  authority: 'fulfilment, retrying until the carrier answers,',
  guarantee: 'atLeastOnce',
  lifetime: 'the lifetime of the order',
  ...NO_KEY_REPLAY,
  unknownCompletion: 'a blind retry, so a unique pickup is not guaranteed under ambiguous completion; repair is manual reconciliation against the carrier',
}, PICKUP_TABLES);

/** The contract the business wants: one booked pickup per (order_id, pickup_version). */
export function uniquePickupClaim(o: { readonly authority: string; readonly unknownCompletion: string; readonly sameIntent?: string; readonly differentIntent?: string }) {
  return providerClaim([...PICKUP_KEY], {
    effect: 'carrier pickup',
    lifetime: 'the lifetime of the order',
    sameIntent: 'the carrier operation already booked',
    differentIntent: 'is refused by the carrier as a conflict',
    ...o,
  }, PICKUP_TABLES);
}
