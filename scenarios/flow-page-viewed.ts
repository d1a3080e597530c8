// Seed 004, flow register EV-03 (`page.viewed`, Web → Analytics: "At-most-once acceptable")
// and ED-04: the web tier fires the event once and forgets it, and analytics acknowledges
// before it counts, so a crash or a lost message loses a view. The verdict teaches that a
// declared at-most-once claim holds although views are lost, because losing one was accepted in
// writing; the view id still refuses to count one twice.
import { defineScenario } from '../src/scenario/scenario.ts';
import { flowPipeline, pageViewClaim, pageViewed } from '../models/designs/flowRegister.ts';

export default defineScenario({
  name: 'flow-page-viewed',
  title: 'EV-03 page.viewed: at most once, loss declared acceptable',
  source: '004 · 1. Flow register (EV-03); 2. Delivery semantics (at-most-once); 9. Decisions (ED-04)',
  lesson:
    'Loss is a property a flow may choose: this design loses views under crashes and lost messages and still meets its declared at-most-once claim, while the view id keeps the count from ever going over.',
  build: flowPipeline(pageViewed),
  workload: { size: 2 },
  claims: [pageViewClaim],
  expect: { verdict: 'holds' },
});
