// Places are made into text once and read back once (src/faults/place.ts), so plans, replay lines and
// reports always agree on a window or a message point. The round trip must hold for every name a
// design can have: nested state values with dots, message types with dots and colons.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPlace, parsePlace, parsePoint, parseWindow, placeComponent, pointName, pointPlace, windowName, windowPlace } from '../../src/faults/place.ts';

// Component names carry no dot, no arrow and no colon; states and message types may carry dots
// (and a message type colons).
const component = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,8}$/);
const state = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_.]{0,10}[a-zA-Z0-9]$|^[a-zA-Z]$/);
const type = fc.stringMatching(/^[a-z][a-z0-9_.:]{0,10}[a-z0-9]$|^[a-z]$/);

describe('places', () => {
  it('name a window <component>.<state> and a message point <from>-><to>:<type>', () => {
    expect(formatPlace(windowPlace('relay', 'afterBrokerAccept'))).toBe('relay.afterBrokerAccept');
    expect(windowName('relay', 'afterBrokerAccept')).toBe('relay.afterBrokerAccept');
    expect(formatPlace(pointPlace('broker', 'consumer', 'broker.deliver'))).toBe('broker->consumer:broker.deliver');
    expect(pointName('broker', 'consumer', 'broker.deliver')).toBe('broker->consumer:broker.deliver');
  });

  it('read a window back, splitting at the first dot only', () => {
    expect(parseWindow('consumer.processing.applying')).toEqual({ kind: 'window', component: 'consumer', state: 'processing.applying' });
    for (const bad of ['relay', '.polling', 'relay.', '']) expect(parseWindow(bad), bad).toBeUndefined();
  });

  it('read a message point back, its type free to hold colons and dots', () => {
    expect(parsePoint('a->b:db.run:v2')).toEqual({ kind: 'point', from: 'a', to: 'b', type: 'db.run:v2' });
    for (const bad of ['->b:x', 'a->:x', 'a->b', 'a->b:', 'a-b:x', 'ab']) expect(parsePoint(bad), bad).toBeUndefined();
  });

  it('tell the two forms apart by the arrow', () => {
    expect(parsePlace('relay.polling')).toEqual(windowPlace('relay', 'polling'));
    expect(parsePlace('relay->ordersDb:db.run')).toEqual(pointPlace('relay', 'ordersDb', 'db.run'));
    expect(parsePlace('relay->')).toBeUndefined();
  });

  it('belong to the resting process, or to the sender of the message', () => {
    expect(placeComponent(windowPlace('relay', 'polling'))).toBe('relay');
    expect(placeComponent(pointPlace('relay', 'ordersDb', 'db.run'))).toBe('relay');
  });

  it('survive the round trip through text, for any names a design may use', () => {
    fc.assert(
      fc.property(component, state, (c, s) => {
        expect(parsePlace(formatPlace(windowPlace(c, s)))).toEqual(windowPlace(c, s));
      }),
      { seed: 21, numRuns: 300 },
    );
    fc.assert(
      fc.property(component, component, type, (from, to, t) => {
        expect(parsePlace(formatPlace(pointPlace(from, to, t)))).toEqual(pointPlace(from, to, t));
      }),
      { seed: 22, numRuns: 300 },
    );
  });
});
