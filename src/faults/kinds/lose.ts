// A lost message: the n-th message of a kind on a link never arrives. Any link can lose one
// unless one of its ends says otherwise (DesignComponent.messageFaults); a diagram draws it as a
// message that ends in a cross.
import { transportKind } from '../faultKind.ts';

export const lose = transportKind('lose', { drawn: undefined, act: (ops) => ops.drop() });
