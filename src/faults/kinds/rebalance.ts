// A rebalance: the sender takes the work a message carries away from its receiver and gives it to
// another while the message is on its way (a broker moving a partition to another member of the
// consumer group as the record goes out). Only a member of a group another component also joins
// at that broker (DesignComponent.subscribes), or a receiver that declares it for a message type
// (DesignComponent.receivedFaults), is offered one (src/faults/linkFaults.ts).
import { pointKind } from '../faultKind.ts';

export const rebalance = pointKind('rebalance', {
  declared: true,
  drawn: 'on its way as its work is rebalanced away',
  nowhere: 'no record delivered to a member of a consumer group of two or more',
  describe: (f, nth) => `rebalance ${f.point}${nth}: its work moves to another receiver while it is on its way`,
  // The message is delivered as sent; its sender hears at once that the receiver's share of the
  // work moved to another member (src/kernel/emitted.ts: sys.rebalance).
  world: { ownConnection: true, act: (ops) => ops.tellSender('sys.rebalance') },
});
