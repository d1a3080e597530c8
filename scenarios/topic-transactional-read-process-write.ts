// Seed 004, section 6, "Exactly-once: limits": "Broker topic to broker topic with transactional
// read-process-write | Yes, within the broker | Output and input offsets committed together". A
// processor reads each payment from topic `in` and writes its result to topic `out` in one
// producer transaction that also commits the group's offset on `in`.
//
// Analysis. A crash of the processor in any window before the transaction lands (received,
// afterTransactionSend with the request lost or still on its way) leaves neither the result nor
// the offset, so the restarted processor polls the same record and writes it once. A crash after
// the transaction landed finds the offset moved: the next poll returns the next record. A
// duplicated or delayed `topics.transact`, or a retry after a lost `topics.transacted`, starts
// from an offset the group has already moved past and is refused whole (guard
// `transactionFence`), so no result is written twice; a stale `topics.record` is refused the same
// way. Every single fault therefore holds, in every interleaving too (`faultline check` with
// `--faults 2` finds no violation either). The boundary is the cluster: the result and the offset
// are two writes of one system in one transaction; nothing outside it is measured here.
import { defineScenario } from '../src/scenario/scenario.ts';
import { readProcessWrite, topicResultClaim } from '../models/designs/readProcessWrite.ts';

export default defineScenario({
  name: 'topic-transactional-read-process-write',
  title: 'Topic to topic: result and offset in one transaction',
  source: '004 · 6. Exactly-once: limits (broker topic to broker topic, transactional read-process-write)',
  lesson:
    'Within one broker cluster a result and the input offset committed in one transaction give effectively-once output: every repeat of a record after a crash, a lost reply or a duplicated request finds its offset already moved.',
  build: readProcessWrite({ commit: 'transactional' }),
  workload: { size: 2 },
  claims: [topicResultClaim],
  expect: { verdict: 'holds' },
});
