// A duplicated message: the n-th message of a kind on a link arrives twice, the copy right behind
// it. Any link can duplicate one unless one of its ends says otherwise (a database connection,
// say, never duplicates a statement).
import { transportKind } from '../faultKind.ts';

export const duplicate = transportKind('duplicate', { drawn: 'duplicated', act: (ops) => ops.twice() });
