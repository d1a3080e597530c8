// Seed 000, step 6 of the external-effect path: "reconcile pending/unknown states until
// terminal", with a reconciler that reads only the UNKNOWN outcomes. Under one fault it is
// enough. Under two it is not, found by `windows --pairs`: a redelivery of pi-2 reads its outcome
// as UNKNOWN just before the reconciler resolves it, then writes the intent back to PENDING; the
// consumer then crashes at `caller.afterExternalResponse` (occurrence 2) while the provider's
// response for it is delayed (`provider->caller:provider.response`, occurrence 2). The offset
// had already moved past pi-2, so no redelivery comes, and the reconciler never looks at PENDING
// intents: pi-2 stays PENDING for ever. The engine and the model are not at fault; the design is
// (it reconciles unknown states but not pending ones). payment-capture-intent-key is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { paymentCapture, paymentCaptureClaim } from '../models/designs/paymentCapture.ts';

export default defineScenario({
  name: 'payment-capture-unknown-only-reconciler',
  title: 'Payment capture whose reconciler sweeps UNKNOWN outcomes but not PENDING intents',
  source: '000 · External side effects expose the edge of the transaction (step 6: reconcile pending/unknown states until terminal)',
  lesson: 'A reconciler must own every non-terminal state the callers can leave behind; one that reads only UNKNOWN outcomes misses an intent a racing redelivery put back to PENDING.',
  // Without the amended capture, so the schedule is the one the finding was made on.
  build: paymentCapture({ idempotency: 'intentBound', reconciler: { sweep: 'unknownOnly' }, amendment: false }),
  workload: { size: 2 },
  claims: [paymentCaptureClaim],
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['unresolved unknown outcome'] },
    why: 'design: a racing redelivery puts the resolved pi-2 intent back to PENDING, a crash at caller.afterExternalResponse with a delayed provider response leaves it there, and the reconciler reads only UNKNOWN outcomes (see the comment above)',
  },
});
