// The topic-to-topic processor: with the result and the offset in one transaction, a repeated
// transaction is refused whole and every single fault holds; with the offset committed after the
// result, a crash between the two writes the result again, and the processor's own poll is what
// reads the record again.
import { describe, expect, it } from 'vitest';
import { formatPlace } from '../../src/faults/place.ts';
import { runWindows, type WindowRow } from '../../src/modes/windows.ts';
import separate from '../../scenarios/topic-read-process-write-separate-commit.ts';
import transactional from '../../scenarios/topic-transactional-read-process-write.ts';
import withEmail from '../../scenarios/topic-transactional-read-process-write-email.ts';

const row = (rows: readonly WindowRow[], place: string, fault: string) => rows.find((r) => formatPlace(r.place) === place && r.fault === fault)!;

describe('read-process-write between two topics', () => {
  it('refuses a duplicated transaction whole, so the result is written once', () => {
    const r = runWindows(transactional);
    expect(r.judgement.verdict).toBe('holds');
    const dup = row(r.rows, 'processor->topics:topics.transact', 'duplicate');
    expect(dup.struck).toBeGreaterThan(0);
    expect(dup.outcome).toBe('holds');
    expect(dup.guards).toEqual(['transactionFence']);
    // The separate form's windows, which the transactional one's options rule out, are neither
    // counted, listed as unreached, nor struck.
    for (const w of ['processor.afterOutputWritten', 'processor.afterCommitSend']) {
      expect(r.failureWindows).not.toContain(w);
      expect(r.unreachedWindows).not.toContain(w);
      expect(r.rows.filter((x) => formatPlace(x.place) === w)).toEqual([]);
    }
    expect(runWindows(separate).failureWindows).toEqual(expect.arrayContaining(['processor.afterOutputWritten', 'processor.afterCommitSend']));
  });

  it('writes the result twice when the processor crashes after the result and before the offset commit', () => {
    const r = runWindows(separate);
    expect(r.judgement.found).toEqual(['duplicate effect']);
    const crash = row(r.rows, 'processor.afterOutputWritten', 'crash');
    expect(crash.outcome).toBe('duplicate effect');
    expect(crash.guards).toEqual([]);
    expect(crash.evidence?.end).toEqual(['2 rows for evt-pay-1 in topic_out']);
  });

  it('ends at the cluster: the result stays exactly once while an email the processor sends is repeated', () => {
    const r = runWindows(withEmail);
    const result = r.coverage.clauses.filter((c) => c.effect === "a payment's result on topic out");
    expect(result.length).toBeGreaterThan(0);
    expect(result.every((c) => c.status !== 'violated')).toBe(true);
    const crash = row(r.rows, 'processor.received', 'crash');
    expect(crash.outcome).toBe('duplicate effect');
    expect(crash.retry).toMatchObject({ kind: 'resent', component: 'processor', message: 'mail.send' });
    expect(row(r.rows, 'processor.afterTransactionSend', 'crash').outcome).toBe('holds');
  });
});
