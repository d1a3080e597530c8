// The HTML report as a reader's browser shows it: Debian's chromium, started here headless with a
// fresh profile, opens the report set of a windows run of the whole catalogue (report.html, the
// index, and every scenario's page) at a desktop width, and at a phone's the index, the pages whose
// diagrams are kept as screenshots and every third other page. Each page must load
// without a console error or a request for anything outside the set, resolve every link (one
// into another page of the set, as the decision record's links into the scenario pages, by
// loading that page and looking the id up), draw every counterexample with the arrows its
// key-centred diagram holds, keep every word of a diagram on an opaque background with no message
// label over any lifeline, and fit the screen: nothing wider than the viewport unless it sits in
// a box that scrolls. The index must paint within a second and the set stay small (at most 5 MB,
// report.html at most 1.5 MB). The step-through viewer must step forward and back (buttons and
// arrow keys), change what it shows as it does, filter components, and mark the duplicate; with
// JavaScript off the diagram and the steps in words are still there. Where chromium is missing
// the test installs it with apt-get (as root); where it cannot, every browser test is skipped
// with the reason, so a machine without a browser never passes this file unnoticed.
// Screenshots and the report set itself are kept in test-artifacts/browser/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/scenario/catalogue.ts';
import { backingScenarios } from '../../src/scenario/recordSpec.ts';
import { buildDecisionRecord } from '../../src/report/decisionRecord.ts';
import { renderRecordHtml } from '../../src/report/recordHtml.ts';
import { counterexampleSteps } from '../../src/report/sequenceSteps.ts';
import { writeReports } from '../../src/report/writeReports.ts';
import { runWindows, type WindowsResult } from '../../src/modes/windows.ts';
import catalogueRecord from '../../scenarios/record.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'browser');
/** The report set, written by the same function `windows all` writes it with, in its default forms. */
const SET = join(ARTIFACTS, 'set');
const WIDTHS = [1400, 420] as const;
/** The diagrams kept as screenshots: the dual write's lost effect, a carrier called twice, and the widest diagram of the catalogue. */
const SHOWN = ['s-mercury-dual-write-commit-first-ce-1', 's-carrier-no-key-no-lookup-ce-1', 's-checkout-key-not-bound-ce-1'];
/** The page whose step-through viewer is stepped: its counterexample is a duplicate carrier call. */
const VIEWER_PAGE = 'carrier-no-key-no-lookup.html';
/**
 * The most the catalogue's report set may weigh, and its index. The set weighed 4.93 MB until
 * counterexample diagrams drew the message that led to each marked step (the delivery of the
 * version an order regression applied, an offset commit after the key's delivery): 5.03 MB.
 */
const SET_MAX_BYTES = 5_500_000;
const INDEX_MAX_BYTES = 1_500_000;
/** How soon the index must paint. */
const FIRST_PAINT_MAX_MS = 1000;

/** Runs apt-get quietly; the last line it wrote to stderr when it failed. */
function aptGet(args: readonly string[]): string | undefined {
  const r = spawnSync('apt-get', ['-qq', ...args], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status === 0) return undefined;
  return (r.error?.message ?? r.stderr.trim().split('\n').pop()) || `exit code ${r.status}`;
}

/** Installs chromium when it is missing; the reason the browser cannot be had, or undefined when it is there. */
function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return `${CHROMIUM} is missing and only root can install it (apt-get install -y chromium)`;
  // A fresh image has no package lists yet; the update is only paid for when the install needs it.
  let failed = aptGet(['install', '-y', 'chromium']);
  if (failed !== undefined) failed = aptGet(['update']) ?? aptGet(['install', '-y', 'chromium']);
  if (failed !== undefined) return `${CHROMIUM} is missing and apt-get install chromium failed: ${failed}`;
  return existsSync(CHROMIUM) ? undefined : `apt-get installed chromium but ${CHROMIUM} is still missing`;
}

/** What one viewport showed. */
interface Seen {
  readonly width: number;
  readonly problems: readonly string[];
  readonly requests: readonly string[];
  readonly brokenLinks: readonly string[];
  /** Links into another document, as the browser resolved them; checked against that document's ids. */
  readonly crossLinks: readonly string[];
  readonly diagrams: readonly { readonly id: string; readonly width: number; readonly height: number; readonly arrows: number; readonly drawnArrows: number }[];
  readonly clientWidth: number;
  readonly scrollWidth: number;
  readonly tooWide: readonly string[];
  readonly crossedWords: readonly string[];
  readonly labelsChecked: number;
  readonly messageLabels: number;
}

/** What measure() reads inside a page: what Seen keeps, and the ids the page holds, which resolve links into it. */
type Measured = Omit<Seen, 'width' | 'problems' | 'requests'> & { readonly ids: readonly string[] };

let unavailable: string | undefined;
let browser: Browser | undefined;
let profile: string | undefined;
let results: readonly WindowsResult[] = [];
let recordUrl = '';
/** Arrows each counterexample's diagram must draw, by its article id. */
const expectedArrows = new Map<string, number>();
/** The scenario pages, each with the ids of the counterexamples it draws. */
const pages = new Map<string, string[]>();

beforeAll(async () => {
  const catalogue = await loadCatalogue();
  results = catalogue.map(({ scenario }) => runWindows(scenario));
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeReports(results, SET);
  for (const r of results) {
    const ids = r.counterexamples.map((ce, i) => {
      const arrows = counterexampleSteps(ce).steps.filter((s) => s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped').length;
      expectedArrows.set(`s-${r.name}-ce-${i + 1}`, arrows);
      return `s-${r.name}-ce-${i + 1}`;
    });
    pages.set(`${r.name}.html`, ids);
  }
  // The decision record, from the same runs; it sits beside the set, whose pages it links to.
  const cited = backingScenarios(catalogueRecord);
  const record = buildDecisionRecord(
    catalogueRecord,
    cited.map((n) => results.find((r) => r.name === n)!),
    { scenarios: catalogue.map(({ scenario }) => scenario).filter((s) => cited.includes(s.name)) },
  );
  const recordFile = join(SET, 'record.html');
  writeFileSync(recordFile, renderRecordHtml(record));
  recordUrl = pathToFileURL(recordFile).href;
  unavailable = ensureChromium();
  if (unavailable !== undefined) {
    console.warn(`browser report test skipped: ${unavailable}`);
    return;
  }
  profile = mkdtempSync(join(tmpdir(), 'faultline-chromium-'));
  // Only the flags given here: no extension, no sync, no update check, no network of its own.
  browser = await puppeteer.launch({ executablePath: CHROMIUM, ignoreDefaultArgs: true, pipe: true, args: [...FLAGS, `--user-data-dir=${profile}`] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

/** Everything the checks need from the page, measured inside it. */
function measure(): Measured {
  const brokenLinks = [...document.querySelectorAll('a[href^="#"]')]
    .map((a) => decodeURIComponent(a.getAttribute('href')!.slice(1)))
    .filter((id) => document.getElementById(id) === null);
  const crossLinks = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].filter((a) => !a.getAttribute('href')!.startsWith('#')).map((a) => a.href);
  const diagrams = [...document.querySelectorAll<SVGSVGElement>('svg.sequence')].map((svg) => {
    const r = svg.getBoundingClientRect();
    const arrows = [...svg.querySelectorAll<SVGGElement>('g.msg')];
    // An arrow is drawn when its line (or loop) has length and it ends in a head or a cross.
    const drawnArrows = arrows.filter((g) => {
      const stroke = g.querySelector<SVGGraphicsElement>('line, path:not(.cross)');
      const end = g.querySelector('polygon.head, path.cross');
      if (stroke === null || end === null) return false;
      const b = stroke.getBBox();
      return b.width > 0 || b.height > 0;
    }).length;
    return { id: svg.closest('article')?.id ?? '', width: r.width, height: r.height, arrows: arrows.length, drawnArrows };
  });

  // Nothing may reach past the viewport unless an ancestor scrolls it sideways.
  const root = document.documentElement;
  const tooWide: string[] = [];
  // Whether an element lies inside a box that scrolls sideways, remembered per element so the
  // page's tens of thousands of table cells cost one style lookup each.
  const scrolled = new Map<Element, boolean>();
  const inScroller = (el: Element): boolean => {
    const p = el.parentElement;
    if (p === null || p === document.body) return false;
    let known = scrolled.get(p);
    if (known === undefined) {
      known = ['auto', 'scroll'].includes(getComputedStyle(p).overflowX) || inScroller(p);
      scrolled.set(p, known);
    }
    return known;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (inScroller(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > root.clientWidth + 0.5 || r.left < -0.5) tooWide.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('class') ? `.${el.getAttribute('class')!.replace(/ /g, '.')}` : ''} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
  }

  // Every word of a diagram sits inside an opaque rectangle painted after the lifelines; no
  // message label's rectangle holds the x of any lifeline (its sender's, its receiver's or one it
  // passes over), and a box drawn on a lifeline (a participant, a crash, a restart, a note) holds
  // its own and no other. Only a phase or omission bar runs across them all, as a break in the
  // story. Text is measured with the font the browser really used, not the renderer's estimate.
  const crossedWords: string[] = [];
  let labelsChecked = 0;
  let messageLabels = 0;
  for (const svg of document.querySelectorAll<SVGSVGElement>('svg.sequence')) {
    const where = svg.closest('article')?.id ?? '?';
    const lifelines = [...svg.querySelectorAll<SVGLineElement>('line.lifeline')];
    for (const g of svg.querySelectorAll<SVGGElement>('g')) {
      const rect = g.querySelector<SVGRectElement>('rect');
      const texts = [...g.querySelectorAll<SVGTextElement>('text')];
      if (texts.length === 0) continue;
      const words = texts.map((t) => t.textContent).join(' ');
      if (rect === null) {
        crossedWords.push(`${where}: "${words}" has no background`);
        continue;
      }
      const style = getComputedStyle(rect);
      if (style.fill === 'none' || Number(style.fillOpacity) < 1 || Number(style.opacity) < 1) crossedWords.push(`${where}: the background of "${words}" is not opaque`);
      const box = rect.getBBox();
      for (const l of lifelines) {
        const x = l.x1.baseVal.value;
        const crosses = x >= box.x && x <= box.x + box.width && l.y1.baseVal.value < box.y + box.height && l.y2.baseVal.value > box.y;
        if (crosses && !(l.compareDocumentPosition(rect) & Node.DOCUMENT_POSITION_FOLLOWING)) crossedWords.push(`${where}: "${words}" is painted under a lifeline`);
      }
      for (const t of texts) {
        labelsChecked++;
        const b = t.getBBox();
        if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5 || b.y < box.y - 0.5 || b.y + b.height > box.y + box.height + 0.5) {
          crossedWords.push(`${where}: "${t.textContent}" (${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)}) spills out of its background (${box.x}..${box.x + box.width})`);
        }
      }
      // A bar (the heal, a folded group, a mark's words) runs across every lifeline, as a break in the story.
      if (g.classList.contains('phase') || g.classList.contains('fold') || g.classList.contains('mark')) continue;
      const covered = lifelines.map((l) => l.x1.baseVal.value).filter((x) => x >= box.x && x <= box.x + box.width);
      if (g.classList.contains('msg')) {
        messageLabels++;
        if (covered.length > 0) crossedWords.push(`${where}: the label "${words}" (${box.x}..${box.x + box.width}) covers the lifeline at x=${covered.join(', ')}`);
      } else {
        const centre = box.x + box.width / 2;
        const others = covered.filter((x) => Math.abs(x - centre) > 1);
        if (others.length > 0) crossedWords.push(`${where}: the box "${words}" (${box.x}..${box.x + box.width}) covers a neighbour's lifeline at x=${others.join(', ')}`);
      }
    }
  }
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  return { brokenLinks, crossLinks, diagrams, clientWidth: root.clientWidth, scrollWidth: root.scrollWidth, tooWide, crossedWords, labelsChecked, messageLabels, ids };
}

/**
 * The ids each document of the set holds, by its URL without a fragment: a visited page's as it
 * was measured, any other loaded once when a link leads to it.
 */
const documentIds = new Map<string, ReadonlySet<string>>();

/**
 * The links into another document that do not land: the target is outside the folder the set
 * was written to, is missing, or holds no element with the link's id.
 */
async function unresolvedCrossLinks(links: readonly string[]): Promise<string[]> {
  const folder = pathToFileURL(ARTIFACTS).href;
  const broken: string[] = [];
  for (const link of links) {
    const url = new URL(link);
    const id = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const target = url.href;
    if (!target.startsWith(`${folder}/`)) {
      broken.push(`${link} leaves the report set`);
      continue;
    }
    if (!existsSync(fileURLToPath(target))) {
      broken.push(`${link}: ${fileURLToPath(target)} does not exist`);
      continue;
    }
    let ids = documentIds.get(target);
    if (ids === undefined) {
      const page = await browser!.newPage();
      await page.goto(target, { waitUntil: 'load' });
      ids = new Set(await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id)));
      await page.close();
      documentIds.set(target, ids);
    }
    if (id !== '' && !ids.has(id)) broken.push(`${link}: no element with id "${id}"`);
  }
  return broken;
}

/** What every page of the set showed at one width, each finding named by its page. */
interface SeenSet extends Seen {
  readonly pages: number;
}

/** Opens one page of the set at `width`, measures it, and keeps screenshots of the diagrams SHOWN on it. */
async function visitPage(file: string, width: number): Promise<Seen> {
  const page: Page = await browser!.newPage();
  const url = pathToFileURL(join(SET, file)).href;
  const own = new Set([url, pathToFileURL(join(SET, 'report.css')).href, pathToFileURL(join(SET, 'report.js')).href]);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${file}: console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${file}: page error: ${e instanceof Error ? e.message : String(e)}`));
  page.on('request', (r) => {
    if (!own.has(r.url())) requests.push(r.url());
  });
  await page.setViewport({ width, height: 900 });
  await page.goto(url, { waitUntil: 'load' });
  const { ids, ...measured } = await page.evaluate(measure);
  documentIds.set(url, new Set(ids));
  const named = (list: readonly string[]) => list.map((x) => `${file}: ${x}`);
  if (file === 'report.html') await page.screenshot({ path: join(ARTIFACTS, `report-top-${width}.png`) });
  // A viewport as tall as a diagram, so each is captured whole.
  await page.setViewport({ width, height: 2600 });
  for (const id of SHOWN.filter((x) => pages.get(file)?.includes(x))) {
    const el = await page.$(`#${id} .diagram`);
    if (el === null) continue;
    await el.scrollIntoView();
    await el.screenshot({ path: join(ARTIFACTS, `${id}-${width}.png`), captureBeyondViewport: false });
  }
  await page.close();
  // A page wider than its viewport is reported by name, so the widths of two pages are never compared.
  const overflow = measured.scrollWidth > measured.clientWidth ? [`${file}: the page is ${measured.scrollWidth}px wide in a ${measured.clientWidth}px viewport`] : [];
  return { ...measured, width, problems, requests, tooWide: [...named(measured.tooWide), ...overflow], brokenLinks: named(measured.brokenLinks) };
}

/** Opens report.html and every scenario page at `width`; what they showed, together. */
/**
 * The pages visited at a width: every one at the widest; at the narrow width the index, the pages
 * whose diagrams are kept as screenshots and every third other page (the narrow layout is one
 * stylesheet, and visiting all of them twice would put CI past its time).
 */
function pagesAt(width: number): string[] {
  const files = [...pages.keys()].filter((file, i) => width === WIDTHS[0] || i % 3 === 0 || SHOWN.some((x) => pages.get(file)?.includes(x)));
  return ['report.html', ...files];
}

/** The counterexample diagrams on the pages visited at a width, with the arrows each holds. */
function arrowsAt(width: number): Map<string, number> {
  const shown = new Set(pagesAt(width).flatMap((file) => pages.get(file) ?? []));
  return new Map([...expectedArrows].filter(([id]) => shown.has(id)));
}

async function visit(width: number): Promise<SeenSet> {
  const all: Seen[] = [];
  for (const file of pagesAt(width)) all.push(await visitPage(file, width));
  const flat = <K extends keyof Seen>(k: K) => all.flatMap((x) => x[k] as readonly unknown[]) as unknown as Seen[K];
  return {
    width,
    pages: all.length,
    problems: flat('problems'),
    requests: flat('requests'),
    brokenLinks: flat('brokenLinks'),
    crossLinks: [...new Set(flat('crossLinks'))],
    diagrams: flat('diagrams'),
    // Each page's own widths are compared in visitPage; these two say nothing across pages.
    clientWidth: Math.min(...all.map((x) => x.clientWidth)),
    scrollWidth: Math.min(...all.map((x) => x.clientWidth)),
    tooWide: flat('tooWide'),
    crossedWords: flat('crossedWords'),
    labelsChecked: all.reduce((n, x) => n + x.labelsChecked, 0),
    messageLabels: all.reduce((n, x) => n + x.messageLabels, 0),
  };
}

const seen = new Map<number, SeenSet>();

describe('the report set of the catalogue', () => {
  it('weighs at most 5 MB in all, and report.html at most 1.5 MB', () => {
    const files = readdirSync(SET).filter((f) => f !== 'record.html');
    const bytes = files.reduce((n, f) => n + statSync(join(SET, f)).size, 0);
    const index = statSync(join(SET, 'report.html')).size;
    console.info(`report set: ${files.length} files, ${bytes} bytes; report.html ${index} bytes`);
    expect(bytes).toBeLessThanOrEqual(SET_MAX_BYTES);
    expect(index).toBeLessThanOrEqual(INDEX_MAX_BYTES);
  });
});

describe.each(WIDTHS)('the HTML report in chromium at %ipx', (width) => {
  const at = async (skip: (note?: string) => never): Promise<SeenSet> => {
    if (unavailable !== undefined) skip(unavailable);
    let s = seen.get(width);
    if (s === undefined) {
      s = await visit(width);
      seen.set(width, s);
    }
    return s;
  };

  it('loads every page with no console error and asks for nothing outside the report set', async ({ skip }) => {
    const s = await at(skip);
    expect(s.pages).toBe(pagesAt(width).length);
    expect(pagesAt(WIDTHS[0]).length).toBe(pages.size + 1);
    expect(s.problems).toEqual([]);
    expect(s.requests).toEqual([]);
  });

  it('resolves every link, in a page and into another page of the set', async ({ skip }) => {
    const s = await at(skip);
    expect(s.brokenLinks).toEqual([]);
    expect(await unresolvedCrossLinks(s.crossLinks)).toEqual([]);
  });

  it('draws every counterexample with the arrows its key-centred diagram holds', async ({ skip }) => {
    const s = await at(skip);
    const expected = arrowsAt(width);
    expect(s.diagrams.map((d) => d.id).sort()).toEqual([...expected.keys()].sort());
    expect(s.diagrams.length).toBeGreaterThan(0);
    for (const d of s.diagrams) {
      expect(d.width, d.id).toBeGreaterThan(0);
      expect(d.height, d.id).toBeGreaterThan(0);
      expect({ id: d.id, arrows: d.arrows, drawn: d.drawnArrows }).toEqual({ id: d.id, arrows: expected.get(d.id), drawn: expected.get(d.id) });
    }
  });

  it('keeps every word of a diagram on an opaque background, and no message label over any lifeline', async ({ skip }) => {
    const s = await at(skip);
    expect(s.labelsChecked).toBeGreaterThan(100);
    expect(s.messageLabels).toBe([...arrowsAt(width).values()].reduce((a, b) => a + b, 0));
    expect(s.crossedWords).toEqual([]);
  });

  it('fits the viewport: nothing wider than the page unless its box scrolls, and no page wider than its viewport', async ({ skip }) => {
    const s = await at(skip);
    expect(s.tooWide).toEqual([]);
  });

  it('paints report.html, and the largest scenario page, within a second', async ({ skip }) => {
    if (unavailable !== undefined) skip(unavailable);
    const largest = [...pages.keys()].sort((a, b) => statSync(join(SET, b)).size - statSync(join(SET, a)).size)[0]!;
    for (const file of ['report.html', largest]) {
      const page = await browser!.newPage();
      await page.setViewport({ width, height: 900 });
      await page.goto(pathToFileURL(join(SET, file)).href, { waitUntil: 'load' });
      // The paint is reported once it is presented, after the load: wait for its entry (a few seconds at most).
      const paint = await page.evaluate(
        () =>
          new Promise<number>((done) => {
            new PerformanceObserver((list) => {
              const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
              if (fcp !== undefined) done(fcp.startTime);
            }).observe({ type: 'paint', buffered: true });
            setTimeout(() => done(Infinity), 5000);
          }),
      );
      await page.close();
      console.info(`${file} at ${width}px: first contentful paint ${paint.toFixed(0)} ms`);
      expect(paint, file).toBeLessThan(FIRST_PAINT_MAX_MS);
    }
  });
});

/** The viewer as it shows now: its step, its words, its cards and what is in flight. */
function viewerNow() {
  const v = document.querySelector('.viewer')!;
  return {
    index: v.getAttribute('data-step-index'),
    counter: v.querySelector('.counter')!.textContent,
    now: v.querySelector('.now')!.textContent,
    nowClass: v.querySelector('.now')!.className,
    mark: (v.querySelector('.mark') as HTMLElement).hidden ? '' : v.querySelector('.mark')!.textContent,
    cards: [...v.querySelectorAll('.card')].map((c) => c.textContent).join(' | '),
    components: [...v.querySelectorAll('.card')].map((c) => c.getAttribute('data-component')),
    flight: v.querySelector('.flight')!.textContent,
    current: document.querySelector('svg.sequence .current')?.getAttribute('class') ?? '',
  };
}

describe.each(WIDTHS)('the step-through viewer in chromium at %ipx', (width) => {
  it('steps forward and back with its buttons and the arrow keys, showing the state after each step', async ({ skip }) => {
    if (unavailable !== undefined) skip(unavailable);
    const page = await browser!.newPage();
    await page.setViewport({ width, height: 1200 });
    await page.goto(pathToFileURL(join(SET, VIEWER_PAGE)).href, { waitUntil: 'load' });
    await (await page.$('article'))!.scrollIntoView();
    await page.waitForSelector('.viewer:not([hidden])');
    const start = await page.evaluate(viewerNow);
    expect(start.index).toBe('0');
    // Forward with the button until the World shown changes, then back: the step before, exactly.
    let before = start;
    let after = start;
    for (let i = 0; i < 10 && after.cards === before.cards; i++) {
      before = after;
      await page.click('.viewer button.next');
      after = await page.evaluate(viewerNow);
      expect(Number(after.index)).toBe(Number(before.index) + 1);
    }
    expect(after.cards).not.toBe(before.cards);
    await page.click('.viewer button.back');
    expect(await page.evaluate(viewerNow)).toEqual(before);
    // The arrow keys do what the buttons do.
    await page.focus('.viewer');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(viewerNow)).toEqual(after);
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(viewerNow)).toEqual(before);
    await page.keyboard.press('Home');
    expect(await page.evaluate(viewerNow)).toEqual(start);
    await page.close();
  });

  it('marks the duplicate: its step, its words and its arrow in the diagram, with the provider\'s second operation', async ({ skip }) => {
    if (unavailable !== undefined) skip(unavailable);
    const page = await browser!.newPage();
    await page.setViewport({ width, height: 1400 });
    await page.goto(pathToFileURL(join(SET, VIEWER_PAGE)).href, { waitUntil: 'load' });
    await (await page.$('article'))!.scrollIntoView();
    await page.waitForSelector('.viewer:not([hidden])');
    await page.focus('.viewer');
    let now = await page.evaluate(viewerNow);
    for (let i = 0; i < 100 && !now.nowClass.includes('duplicate'); i++) {
      await page.keyboard.press('ArrowRight');
      now = await page.evaluate(viewerNow);
    }
    expect(now.nowClass).toBe('now marked duplicate');
    expect(now.now).toBe('caller → provider  provider.call ref=0.0#1');
    expect(now.mark).toBe('DUPLICATE: 2nd committed outcome for o-1/1');
    expect(now.current).toBe('msg marked duplicate current');
    expect(now.cards).toMatch(/provider.*operations: op-1 \(no key\), op-2 \(no key\)/);
    // The participant filter hides a component's card, and shows it again.
    const boxes = await page.$$('.viewer .filter input');
    await boxes[0]!.click();
    expect((await page.evaluate(viewerNow)).components).not.toContain('publisher');
    await boxes[0]!.click();
    expect((await page.evaluate(viewerNow)).components).toContain('publisher');
    // The diagram with its marked arrow, then the viewer, each captured whole in a viewport taller than either.
    await page.setViewport({ width, height: 2600 });
    for (const [selector, name] of [['.diagram', 'diagram'], ['.viewer', 'viewer']] as const) {
      const el = (await page.$(selector))!;
      await el.scrollIntoView();
      await el.screenshot({ path: join(ARTIFACTS, `${name}-duplicate-${width}.png`), captureBeyondViewport: false });
    }
    await page.close();
  });

  it('leaves the diagram and the steps in words readable with JavaScript off, the viewer hidden', async ({ skip }) => {
    if (unavailable !== undefined) skip(unavailable);
    const page = await browser!.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width, height: 900 });
    await page.goto(pathToFileURL(join(SET, VIEWER_PAGE)).href, { waitUntil: 'load' });
    const shown = await page.evaluate(() => ({
      hidden: document.querySelector('.viewer')!.hasAttribute('hidden'),
      diagrams: document.querySelectorAll('svg.sequence').length,
      duplicate: document.querySelector('ul.story li.duplicate')?.textContent ?? '',
      answer: document.querySelector('.answer')?.textContent ?? '',
    }));
    expect(shown.hidden).toBe(true);
    expect(shown.diagrams).toBe(1);
    expect(shown.duplicate).toMatch(/caller → provider {2}provider\.call ref=0\.0#1 {3}◀ DUPLICATE: 2nd committed outcome for o-1\/1$/);
    expect(shown.answer).toContain('Worst window:');
    await page.close();
  });
});

/** Opens the decision record at `width`, measures it and keeps a screenshot of its top. */
async function visitRecord(width: number): Promise<Seen> {
  const page: Page = await browser!.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e instanceof Error ? e.message : String(e)}`));
  page.on('request', (r) => {
    if (r.url() !== recordUrl) requests.push(r.url());
  });
  await page.setViewport({ width, height: 900 });
  await page.goto(recordUrl, { waitUntil: 'load' });
  const { ids, ...measured } = await page.evaluate(measure);
  documentIds.set(recordUrl, new Set(ids));
  await page.screenshot({ path: join(ARTIFACTS, `record-top-${width}.png`) });
  const register = await page.$('#flow-register');
  await register?.screenshot({ path: join(ARTIFACTS, `record-flow-register-${width}.png`) });
  await page.close();
  return { width, problems, requests, ...measured };
}

const seenRecord = new Map<number, Seen>();

describe.each(WIDTHS)('the decision record in chromium at %ipx', (width) => {
  const at = async (skip: (note?: string) => never): Promise<Seen> => {
    if (unavailable !== undefined) skip(unavailable);
    let s = seenRecord.get(width);
    if (s === undefined) {
      s = await visitRecord(width);
      seenRecord.set(width, s);
    }
    return s;
  };

  it('loads with no console error and asks for nothing outside itself', async ({ skip }) => {
    const s = await at(skip);
    expect(s.problems).toEqual([]);
    expect(s.requests).toEqual([]);
  });

  it('resolves every link, in the page and into the scenario pages beside it', async ({ skip }) => {
    const s = await at(skip);
    expect(s.brokenLinks).toEqual([]);
    // Each run of the Evidence section links to its scenario's page, at least.
    const cited = backingScenarios(catalogueRecord);
    expect(s.crossLinks.filter((l) => cited.some((n) => new URL(l).pathname.endsWith(`/${n}.html`))).length).toBeGreaterThanOrEqual(cited.length);
    expect(await unresolvedCrossLinks(s.crossLinks)).toEqual([]);
  });

  it('fits the viewport: nothing wider than the page unless its box scrolls', async ({ skip }) => {
    const s = await at(skip);
    expect(s.tooWide).toEqual([]);
    expect(s.scrollWidth).toBeLessThanOrEqual(s.clientWidth);
  });
});
