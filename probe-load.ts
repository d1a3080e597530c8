import { defineScenario } from './src/scenario.ts';
import s from './scenarios/mercury-outbox.ts';
const c = s.claims[0]!;
for (const claim of [
  { ...c, guarantee: 'atMostOnce', facts: () => [] },
  { ...c, facts: undefined },
  { ...c, guarantee: 'atMostOnce', facts: () => [], unchecked: ['phantom effect'] },
  { ...c, facts: () => ['x'] },
]) {
  try { defineScenario({ ...s, claims: [claim] } as any, 'mine.ts'); console.log('accepted'); } catch (e) { console.log(String(e)); }
}
