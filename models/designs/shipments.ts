// A shipment service at the edge of the transaction (seed 000, "External side effects expose the
// edge of the transaction"): fulfilment publishes a pickup request per accepted order, and the
// `shipping` service (models/commitThenCall.ts) consumes it, commits a shipment row in its
// `shippingDb`, and then books the pickup through the carrier's API (`provider`). The claim is
// that every committed shipment row yields exactly one booked pickup: the row is the service's
// committed fact, the carrier's ledger the effect, and the moment between them is what the
// scenarios strike.
import type { Claim, ClaimTable } from '../../src/checkers/claims.ts';
import { design, type DesignBuild } from '../../src/scenario/design.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { broker } from '../broker.ts';
import { commitThenCall, commitThenCallTable, type CommitThenCallOptions } from '../commitThenCall.ts';
import { rowsOf, type DatabaseDurable } from '../database.ts';
import { provider, type ProviderOptions } from '../provider.ts';
import { publisher } from '../publisher.ts';
import { PICKUP_KEY, pickupRequests } from './carrier.ts';
import { databaseComponent } from './databaseComponent.ts';
import { providerOutcomes } from './providerPipeline.ts';
import { ledgerView } from './tableViews.ts';
import type { z } from '../../src/scenario/options.ts';

/** The service's own choices: what it sends, asks and does with a row it finds already there, and how it retries. */
export type ShippingOptions = Pick<z.input<typeof CommitThenCallOptions>, 'sendKey' | 'statusLookup' | 'existingRow' | 'retry' | 'maxAttempts' | 'timeout'>;

/** The carrier's contract: key, lookup, retention, and how long a crash keeps it down. */
export type CarrierOptions = Pick<z.input<typeof ProviderOptions>, 'idempotency' | 'statusLookup' | 'keyRetention' | 'restartAfter'>;

const SHIPMENT_TABLES = { shipments: commitThenCallTable(PICKUP_KEY) };

/** The publisher of pickup requests, the broker, the shipping service and its database, and the carrier. */
export function shipmentPipeline(shipping: ShippingOptions, carrier: CarrierOptions): DesignBuild {
  return design(
    publisher({ records: pickupRequests, keyField: 'order_id' }),
    broker({}),
    commitThenCall({ name: 'shipping', group: 'shipping', db: 'shippingDb', table: 'shipments', effectKey: [...PICKUP_KEY], ...shipping }),
    () => databaseComponent('shippingDb', SHIPMENT_TABLES, { shipments: (r) => `${r['order_id']}/${r['pickup_version']} ${r['status']}${r['op_id'] ? ` ${r['op_id']}` : ''}` }),
    provider(carrier),
  );
}

/** Shipment rows whose call is not known to have gone through: REQUESTED (never settled) or UNKNOWN (given up on). */
function unsettledShipments(v: WorldView): string[] {
  return rowsOf(v.durable<DatabaseDurable>('shippingDb'), 'shipments')
    .filter((r) => r['status'] !== 'SUCCEEDED' && r['status'] !== 'CONFLICT')
    .map((r) => `${r['order_id']}/${r['pickup_version']} (status ${r['status']})`);
}

const UNSETTLED: ClaimTable = { table: 'shipments', key: ['order_id', 'pickup_version', 'status'], where: "$status NOT IN ('SUCCEEDED', 'CONFLICT')", format: '{0}/{1} (status {2})' };

/** One booked pickup per committed shipment row, keyed by (order_id, pickup_version). */
export function shipmentBookingClaim(o: { readonly authority: string; readonly unknownCompletion: string }): Claim {
  const fields = [...PICKUP_KEY];
  return {
    effect: 'carrier pickup of a committed shipment',
    key: fields,
    namespace: 'the shipping service',
    lifetime: 'the lifetime of the order',
    sameIntent: 'the carrier operation already booked',
    ...o,
    tables: {
      effect: { table: 'carrier_pickups', key: fields, format: '{0}/{1}' },
      source: { table: 'shipments', key: fields, format: '{0}/{1}' },
      unresolved: [UNSETTLED],
      views: [ledgerView('carrier_pickups', fields, { pickup_version: 'bigint' })],
    },
    outcomes: providerOutcomes(fields),
    facts: (v) => rowsOf(v.durable<DatabaseDurable>('shippingDb'), 'shipments').map((r) => `${r['order_id']}/${r['pickup_version']}`),
    unresolved: unsettledShipments,
  };
}
