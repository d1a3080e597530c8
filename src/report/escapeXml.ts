// Escapes text for XML and HTML, the one place both the JUnit file and the HTML page get their
// quoting from. Characters XML 1.0 forbids are removed, because a CI server that cannot parse
// the JUnit file shows nothing at all, which is worse than a missing control character.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Tab, line feed and carriage return are the only control characters XML 1.0 allows.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text safe inside XML/HTML element content and double- or single-quoted attributes. */
export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
