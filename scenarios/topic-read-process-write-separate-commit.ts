// Seed 004, section 6, "Exactly-once: limits", the broken form of the topic-to-topic boundary:
// the processor produces each payment's result to topic `out`, and only after the result's
// acknowledgement commits the group's offset on `in` in a second request, as a plain consumer
// does. The transaction that made the boundary hold is gone, so the boundary is at-least-once.
//
// Analysis. The duplicate comes from the design, not the engine: a crash of the processor at
// `processor.afterOutputWritten` (result in `out`, offset not committed) or at
// `processor.afterCommitSend` with the commit lost, restarts it at the old offset, so it polls the
// same record and writes its result a second time: a duplicate effect on topic `out`. A lost
// `topics.commit` does the same through the processor's timeout, and a lost `topics.produced`
// makes it produce the result again. Nothing is lost: every record's result is written at least
// once.
import { defineScenario } from '../src/scenario/scenario.ts';
import { readProcessWrite, topicResultClaim } from '../models/designs/readProcessWrite.ts';

export default defineScenario({
  name: 'topic-read-process-write-separate-commit',
  title: 'Topic to topic: offset committed after the result, outside a transaction',
  source: '004 · 6. Exactly-once: limits (broker topic to broker topic, the offset committed separately)',
  lesson:
    'Committing the input offset in a second request after the output is written makes a topic-to-topic processor at-least-once: a crash or a lost commit between the two writes the same result twice.',
  build: readProcessWrite({ commit: 'separate' }),
  workload: { size: 2 },
  claims: [topicResultClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});
