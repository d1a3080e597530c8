// A workload option is a function of the workload's size (a client's commands, a publisher's
// records, a partner's facts, a saga's purchases and declines, a device's facts), called only
// when the design is built. What it gives is checked there: a misspelt field, a missing one or a
// value of the wrong shape is refused in one line naming the component, the option, the size, the
// item and the field, rather than run. Unchecked, a command with `stauts` for `status` ran, and
// every order read as a phantom effect; a list of strings ran as commands no service understood,
// and every claim held, unexercised.
import { describe, expect, it } from 'vitest';
import { SECONDS } from '../../src/base/duration.ts';
import { InputError } from '../../src/base/inputError.ts';
import { client } from '../../models/client.ts';
import { publisher } from '../../models/publisher.ts';
import { partner } from '../../models/partner.ts';
import { orchestrator } from '../../models/orchestrator.ts';
import { participant } from '../../models/participant.ts';
import { device } from '../../models/device.ts';
import { acceptOrders } from '../../models/designs/orderPipeline.ts';
import type { ComponentBuilder } from '../../src/scenario/design.ts';

/** What building a component for a workload of two throws: its one line, or undefined when it builds. */
function refusal(builder: ComponentBuilder): string | undefined {
  try {
    builder({ size: 2, time: SECONDS });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
}

const asAny = <T>(f: T) => f as never;

describe('a workload option', () => {
  it('builds as it is given when every item has the fields its component reads', () => {
    expect(refusal(client({ commands: acceptOrders }))).toBeUndefined();
    expect(refusal(publisher({ records: () => [{ order_id: 'o-1', n: 1, ok: true, gone: null }], keyField: 'order_id' }))).toBeUndefined();
    expect(refusal(orchestrator({ purchases: () => [{ id: 'p1', captureDeclined: false }], emailStep: 'last' }))).toBeUndefined();
  });

  it('refuses a client command with a misspelt field, naming the item and the field it meant', () => {
    const typo = (size: number) => acceptOrders(size).map(({ status, ...rest }) => ({ ...rest, stauts: status }));
    expect(refusal(client({ commands: asAny(typo) }))).toMatch(/^client option commands\(2\) \[0\]\.status must be a string, got nothing; client option commands\(2\) \[0\] has no field stauts \(did you mean status\?\)/);
  });

  it('refuses commands that are no list, or a list of something else', () => {
    expect(refusal(client({ commands: asAny(() => null) }))).toBe('client option commands(2) must be a list, got null');
    expect(refusal(client({ commands: asAny(() => 'accept') }))).toBe('client option commands(2) must be a list, got "accept"');
    expect(refusal(client({ commands: asAny(() => ['accept']) }))).toMatch(/^client option commands\(2\) \[0\] must be an object/);
  });

  it('refuses a record, a fact, a purchase, a decline or a device fact of the wrong shape', () => {
    expect(refusal(publisher({ records: asAny(() => [{ order_id: 'o-1', nested: { a: 1 } }]), keyField: 'order_id' }))).toMatch(/^publisher option records\(2\) \[0\]\.nested /);
    expect(refusal(partner({ facts: asAny(() => [['o-1']]), redeliverAfter: '1h' }))).toMatch(/^partner option facts\(2\) \[0\] /);
    expect(refusal(orchestrator({ purchases: asAny(() => [{ id: 'p1', captureDecline: true }]), emailStep: 'last' }))).toMatch(/purchases\(2\) \[0\]\.captureDeclined must be true or false, got nothing; .* has no field captureDecline \(did you mean captureDeclined\?\)/);
    expect(refusal(participant({ name: 'payments', idempotent: true, declines: asAny(() => [1]) }))).toMatch(/^payments option declines\(2\) \[0\] must be a string, got 1$/);
    expect(refusal(device({ log: 'log', partition: 0, facts: asAny(() => [{ fact_id: 'f', occursAt: 1, valeu: 2 }]) }))).toMatch(/^device0 facts\(2\) \[0\]\.value must be a number, got nothing; .*has no field valeu \(did you mean value\?\)/);
  });
});
