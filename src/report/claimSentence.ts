// A claim as the seeds' sentence, so a reviewer reads the claim and its verdict together:
// "For <effect>, identified by <key> in <namespace>, <authority> enforces at most one committed
// outcome for <lifetime>. Transport and processing may retry. On replay, the same intent returns
// <recorded result>; a different intent <conflicts>; unknown external completion is resolved by
// <mechanism>." A part the claim does not make is left out of the sentence rather than filled in.
import type { Claim } from '../checkers/claims.ts';

function list(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `(${items.join(', ')})`;
}

export function claimSentence(c: Claim): string {
  const ns = c.namespace ? ` in ${c.namespace}` : '';
  const guarantee = c.guarantee ?? 'exactlyOnceEffect';
  const core =
    guarantee === 'atLeastOnce'
      ? `${c.authority} ensures at least one attempt, and a unique outcome is not guaranteed,`
      : guarantee === 'atMostOnce'
        ? `${c.authority} enforces at most one committed outcome, and losing one is accepted,`
        : `${c.authority} enforces at most one committed outcome`;
  const replay: string[] = [];
  if (c.sameIntent !== undefined) replay.push(`the same intent returns ${c.sameIntent}`);
  if (c.differentIntent !== undefined) replay.push(`a different intent ${c.differentIntent}`);
  if (c.unknownCompletion !== undefined) replay.push(`unknown external completion is resolved by ${c.unknownCompletion}`);
  const replaySentence = replay.length === 0 ? '' : ` On replay, ${replay.join('; ')}.`;
  const finality = c.finality === undefined ? '' : ` Once final, ${c.finality}.`;
  return `For ${c.effect}, identified by ${list(c.key)}${ns}, ${core} for ${c.lifetime}. Transport and processing may retry.${replaySentence}${finality}`;
}
