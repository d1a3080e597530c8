// The coordinator's arithmetic, as pure functions: round-robin by member name, a join or a
// crash reassigning, a live owner keeping a partition until it has finished its record, and a
// rebalance taking one partition to the next member at once.
import { describe, expect, it } from 'vitest';
import { emptyAssignment, handOver, reassign, release, roundRobin } from '../../models/groupAssignment.ts';

const nobodyHolds = () => false;

describe('roundRobin', () => {
  it('gives partition p to the (p mod n)-th member in name order, whatever order the members come in', () => {
    expect(roundRobin(['c2', 'c1'], 5)).toEqual(['c1', 'c2', 'c1', 'c2', 'c1']);
    expect(roundRobin(['c3', 'c1', 'c2'], 4)).toEqual(['c1', 'c2', 'c3', 'c1']);
  });

  it('leaves every partition unowned without members, and gives all to a lone member', () => {
    expect(roundRobin([], 3)).toEqual([null, null, null]);
    expect(roundRobin(['c1'], 3)).toEqual(['c1', 'c1', 'c1']);
  });
});

describe('reassign', () => {
  it('hands a first member every partition, in a new generation', () => {
    const { assignment, moved } = reassign(emptyAssignment(2), ['c1'], 'c1', nobodyHolds);
    expect(assignment).toEqual({ generation: 1, owners: ['c1', 'c1'], epochs: [1, 1], pending: [null, null] });
    expect(moved).toEqual([0, 1]);
  });

  it('moves a partition to a joining member at once when its owner holds no record of it', () => {
    const one = reassign(emptyAssignment(2), ['c1'], 'c1', nobodyHolds).assignment;
    const { assignment, moved } = reassign(one, ['c1', 'c2'], 'c2', nobodyHolds);
    expect(assignment.owners).toEqual(['c1', 'c2']);
    expect(assignment.epochs).toEqual([1, 2]);
    expect(moved).toEqual([1]);
  });

  it('keeps a partition with a live owner that holds a record of it, pending for the joining member', () => {
    const one = reassign(emptyAssignment(2), ['c1'], 'c1', nobodyHolds).assignment;
    const { assignment, moved } = reassign(one, ['c1', 'c2'], 'c2', (p, owner) => p === 1 && owner === 'c1');
    expect(assignment.owners).toEqual(['c1', 'c1']);
    expect(assignment.pending).toEqual([null, 'c2']);
    expect(moved).toEqual([]);
    const done = release(assignment, 1)!;
    expect(done.to).toBe('c2');
    expect(done.assignment).toEqual({ generation: 3, owners: ['c1', 'c2'], epochs: [1, 3], pending: [null, null] });
    expect(release(done.assignment, 1)).toBeUndefined();
  });

  it("gives a crashed member's partitions to the others at once, holding or not", () => {
    const two = reassign(reassign(emptyAssignment(2), ['c1'], 'c1', nobodyHolds).assignment, ['c1', 'c2'], 'c2', nobodyHolds).assignment;
    const { assignment, moved } = reassign(two, ['c1'], undefined, () => true);
    expect(assignment.owners).toEqual(['c1', 'c1']);
    expect(moved).toEqual([1]);
  });

  it('hands a rejoining member its partitions again, from a new generation', () => {
    const one = reassign(emptyAssignment(2), ['c1'], 'c1', nobodyHolds).assignment;
    const { assignment, moved } = reassign(one, ['c1'], 'c1', () => true);
    expect(assignment.epochs).toEqual([2, 2]);
    expect(moved).toEqual([0, 1]);
  });
});

describe('handOver (the rebalance fault)', () => {
  const two = reassign(emptyAssignment(2), ['c1', 'c2'], undefined, nobodyHolds).assignment;

  it('takes one partition from its owner to the next member in name order, at once', () => {
    const r = handOver(two, ['c2', 'c1'], 0, 'c1')!;
    expect(r.to).toBe('c2');
    expect(r.assignment.owners).toEqual(['c2', 'c2']);
    expect(r.assignment.epochs).toEqual([2, 1]);
    expect(handOver(r.assignment, ['c1', 'c2'], 1, 'c2')!.to).toBe('c1');
  });

  it('does nothing for a partition the member does not own, or a group of one', () => {
    expect(handOver(two, ['c1', 'c2'], 1, 'c1')).toBeUndefined();
    expect(handOver(reassign(emptyAssignment(1), ['c1'], 'c1', nobodyHolds).assignment, ['c1'], 0, 'c1')).toBeUndefined();
  });
});
