// A reordered message: the n-th message of a kind on a link is held back and goes right behind
// the next one sent there. A request on a connection of its own has no order to break, so a
// search offers no reorder of it.
import { transportKind } from '../faultKind.ts';

export const reorder = transportKind('reorder', { drawn: 'held back (reorder)', ownConnection: false, act: (ops) => ops.hold() });
