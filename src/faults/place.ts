// Where a fault strikes, as data. Two kinds of place, both discovered from the models:
// - a failure window: a process component resting in one of its states (`relay.afterBrokerAccept`);
// - a message point: one kind of message on one link (`broker->consumer:broker.deliver`).
// Plans, replay lines and reports name places as text; this module is the one place that text
// is made and read back, so a window name is never split by hand anywhere else.

export type WindowPlace = { readonly kind: 'window'; readonly component: string; readonly state: string };
export type PointPlace = { readonly kind: 'point'; readonly from: string; readonly to: string; readonly type: string };
export type Place = WindowPlace | PointPlace;

export function windowPlace(component: string, state: string): WindowPlace {
  return { kind: 'window', component, state };
}

export function pointPlace(from: string, to: string, type: string): PointPlace {
  return { kind: 'point', from, to, type };
}

/** `<component>.<state>` for a window, `<from>-><to>:<type>` for a message point. */
export function formatPlace(p: Place): string {
  return p.kind === 'window' ? windowName(p.component, p.state) : pointName(p.from, p.to, p.type);
}

/** A window's name without building a place first (the World names every state it enters). */
export function windowName(component: string, state: string): string {
  return `${component}.${state}`;
}

/** A message point's name without building a place first (the network names every message it sends). */
export function pointName(from: string, to: string, type: string): string {
  return `${from}->${to}:${type}`;
}

/**
 * Reads a window name back: the component is everything before the first dot (component names
 * carry no dots; a nested state's value may).
 */
export function parseWindow(text: string): WindowPlace | undefined {
  const dot = text.indexOf('.');
  if (dot <= 0 || dot === text.length - 1) return undefined;
  return windowPlace(text.slice(0, dot), text.slice(dot + 1));
}

/** Reads a message point back; the message type may itself contain `:` or `.`, the names may not contain `->`. */
export function parsePoint(text: string): PointPlace | undefined {
  const arrow = text.indexOf('->');
  if (arrow <= 0) return undefined;
  const colon = text.indexOf(':', arrow + 2);
  if (colon <= arrow + 2 || colon === text.length - 1) return undefined;
  return pointPlace(text.slice(0, arrow), text.slice(arrow + 2, colon), text.slice(colon + 1));
}

/** A place from either form of text; a message point is recognised by its arrow. */
export function parsePlace(text: string): Place | undefined {
  return text.includes('->') ? parsePoint(text) : parseWindow(text);
}

/** The component a place belongs to: the resting process, or the sender of the message. */
export function placeComponent(p: Place): string {
  return p.kind === 'window' ? p.component : p.from;
}
