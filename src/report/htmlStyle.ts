// The style every page of the HTML report shares: the index (report.html), each scenario's page
// and the decision record's links into them. No font, image or stylesheet is fetched: the pages
// open the same from a CI artifact, an e-mail attachment or an air-gapped laptop. A diagram keeps
// its drawn size and scrolls inside its own box; a table scrolls inside its own box on a narrow
// screen; the step-through viewer's cards wrap, so a phone shows them one under another.
/** Shortens a stylesheet for the page: comments and the whitespace around its punctuation go, its rules stay as written. */
function compact(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/ ?([{};:,>]) ?/g, '$1').trim();
}

/** What every page needs: type, tables, badges, the answer. */
export const STYLE = compact(`
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1400px; padding: 1.5rem; color: #1f2328; }
h1, h2, h3, h4 { line-height: 1.25; overflow-wrap: anywhere; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
blockquote { margin: 0; padding: 0 1rem; border-left: .25rem solid var(--line); color: var(--muted); }
table { border-collapse: collapse; margin: .75rem 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; position: sticky; top: 0; }
td.query code { white-space: pre-wrap; }
/* A window name reads as one token: never split "broker->consumer" at its hyphen. Long evidence
   and queries (keys, SQL) may break anywhere rather than widen the table past the page. */
td:first-child code { white-space: nowrap; }
td.evidence, td.query { overflow-wrap: anywhere; min-width: 12rem; }
td.words { overflow-wrap: anywhere; }
/* On a narrow window the table scrolls sideways inside its own box, not the whole page; on a wide
   one the box does not clip, so the header row stays pinned while a long table scrolls. */
@media (max-width: 1300px) { .table-wrap { overflow-x: auto; } }
tr.unexpected td { background: #ffebe9; }
tr.expected td { background: #fff8c5; }
tr.unreached td { color: var(--muted); }
.badge { display: inline-block; padding: 0 .55rem; border-radius: 1rem; font-size: 12px; font-weight: 600; color: #fff; vertical-align: middle; }
.badge.holds { background: var(--ok); }
.badge.violated { background: var(--bad); }
.badge.unknown { background: var(--warn); }
.badge.holds-within-bound { background: var(--ok); }
ul.clauses .not-checked, ul.clauses .not-exercised { color: var(--warn); }
.badge.as-expected { background: #fff; color: var(--ok); border: 1px solid var(--ok); }
.badge.not-expected { background: #fff; color: var(--bad); border: 1px solid var(--bad); }
nav ol { padding-left: 1.5rem; }
.counts { display: flex; gap: 2rem; }
.counts div { font-size: 13px; color: var(--muted); }
.counts strong { display: block; font-size: 20px; color: #1f2328; }
/* A diagram keeps its drawn size, so its words stay legible, and scrolls sideways inside its own
   box on a screen narrower than it, never widening the page. The shadows at the box's edges show
   that more of the diagram lies that way; the white covers scroll with the content (background-
   attachment: local) and hide a shadow once the reader reaches that edge. */
.diagram {
  overflow-x: auto; max-width: 100%; box-sizing: border-box; border: 1px solid var(--line); padding: .5rem;
  background: linear-gradient(to right, #fff 30%, #fff0) left / 2rem 100% no-repeat local,
    linear-gradient(to left, #fff 30%, #fff0) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, #0003, #0000) left / .75rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, #0003, #0000) right / .75rem 100% no-repeat scroll,
    #fff;
}
/* A trace hash or a scenario name is one long token: it breaks anywhere rather than widen the page. */
p code, li code, h2 code { overflow-wrap: anywhere; }

/* The answer a page opens with. */
.answer { border: 1px solid var(--line); border-left: .35rem solid var(--muted); padding: .25rem 1rem; margin: 1rem 0; background: #f6f8fa; }
.answer.violated { border-left-color: var(--bad); }
.answer.holds, .answer.holds-within-bound { border-left-color: var(--ok); }
.answer p { margin: .5rem 0; }
.answer pre { margin: .25rem 0 .5rem; background: #fff; }
nav.crumbs { font-size: 13px; }
table.index td:first-child code { white-space: normal; }
.places code { white-space: nowrap; }
`);

/** What a page with counterexamples adds: the sequence diagrams and the step-through viewer. */
export const DIAGRAM_STYLE = compact(`
.diagram svg { display: block; max-width: none; }
svg.sequence { font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
svg.sequence .lifeline { stroke: #8c959f; stroke-dasharray: 4 4; }
svg.sequence .participant rect { fill: #ddf4ff; stroke: #54aeff; }
svg.sequence .participant text { font-weight: 600; }
svg.sequence .msg line, svg.sequence .msg path { stroke: #1f2328; fill: none; }
svg.sequence .head { fill: #1f2328; }
svg.sequence .lost line, svg.sequence .dropped line { stroke: var(--bad); stroke-dasharray: 6 4; }
svg.sequence .lost text, svg.sequence .dropped text { fill: var(--bad); }
svg.sequence .msg .cross { stroke: var(--bad); stroke-width: 2.5; }
/* The layout keeps every label off the lifelines; its background keeps the words legible over anything else. */
svg.sequence .label-bg { fill: #fff; stroke: none; }
svg.sequence .crash rect { fill: var(--bad); stroke: #82071e; }
svg.sequence .crash text { fill: #fff; font-weight: 700; }
svg.sequence .restart rect { fill: #dafbe1; stroke: var(--ok); }
svg.sequence .note rect { fill: #fff8c5; stroke: #d4a72c; }
svg.sequence .phase rect { fill: #eaeef2; stroke: #8c959f; }
ul.story { list-style: none; padding-left: 0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
ul.story li.duplicate, ul.story li.broke, ul.story li.missing { color: var(--bad); font-weight: 600; }
svg.sequence .band.duplicate, svg.sequence .band.broke { fill: #ffebe9; }
svg.sequence .band.outcome, svg.sequence .band.fact { fill: #fff8c5; }
svg.sequence .msg.marked.duplicate line, svg.sequence .msg.marked.broke line { stroke: var(--bad); stroke-width: 2.5; }
svg.sequence .msg.marked.duplicate .head, svg.sequence .msg.marked.broke .head { fill: var(--bad); }
svg.sequence .mark rect { fill: #fff; stroke: #d4a72c; }
svg.sequence .mark.duplicate rect, svg.sequence .mark.broke rect { fill: var(--bad); stroke: #82071e; }
svg.sequence .mark.duplicate text, svg.sequence .mark.broke text { fill: #fff; font-weight: 700; }
svg.sequence .missing rect { fill: #fff; stroke: var(--bad); stroke-width: 2; stroke-dasharray: 5 3; }
svg.sequence .missing text { fill: var(--bad); font-weight: 700; }
svg.sequence .fold rect { fill: #fff; stroke: #8c959f; stroke-dasharray: 3 3; }
svg.sequence .fold text { fill: var(--muted); font-style: italic; }
svg.sequence [data-step] { cursor: pointer; }
svg.sequence .current .label-bg { fill: #ddf4ff; }
svg.sequence .current line, svg.sequence .current path { stroke-width: 3; }
/* The step-through viewer. */
.viewer { border: 1px solid var(--line); padding: .5rem .75rem; margin: .75rem 0; }
.viewer:focus { outline: 2px solid #54aeff; }
.viewer .controls { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
.viewer button { font: inherit; padding: .2rem .7rem; }
.viewer .now { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; margin: .5rem 0 .25rem; }
.viewer .now.duplicate, .viewer .now.broke, .viewer .now.missing { color: var(--bad); }
.viewer .mark { margin: 0 0 .5rem; font-weight: 600; color: var(--bad); }
.viewer .filter { border: 0; padding: 0; margin: .25rem 0; font-size: 13px; display: flex; flex-wrap: wrap; gap: .25rem .9rem; }
.viewer .filter legend { float: left; margin-right: .5rem; color: var(--muted); }
.viewer .cards { display: flex; flex-wrap: wrap; gap: .5rem; }
.viewer .card { border: 1px solid var(--line); border-radius: 4px; padding: .35rem .5rem; font-size: 13px; flex: 1 1 16rem; min-width: 0; overflow-wrap: anywhere; }
.viewer .card.changed { border-color: #d4a72c; background: #fff8c5; }
.viewer .card.down { border-color: var(--bad); background: #ffebe9; }
.viewer .card-head { display: flex; justify-content: space-between; gap: .5rem; }
.viewer .card .state { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.viewer .card .label { color: var(--muted); }
.viewer .flight { font-size: 13px; overflow-wrap: anywhere; }
`);
