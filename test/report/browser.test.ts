// The HTML report as a reader's browser shows it: Debian's chromium, started here headless with a
// fresh profile, opens the report of a windows run of the whole catalogue at a desktop width and
// at a phone's, and the page must load without a console error or a request for anything outside
// itself, resolve every link (one into another page of the set, as the decision record's links
// into report.html, by loading that page and looking the id up), draw every counterexample with
// the arrows its trace holds, keep every word of a diagram on an opaque background with no
// message label over any lifeline, and fit the screen: nothing wider than the viewport unless it
// sits in a box that scrolls. Where chromium
// is missing the test installs it with apt-get (as root); where it cannot, every test is skipped
// with the reason, so a machine without a browser never passes this file unnoticed.
// Screenshots and the page itself are kept in test-artifacts/browser/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue.ts';
import { backingScenarios } from '../../src/recordSpec.ts';
import { buildDecisionRecord } from '../../src/report/decisionRecord.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderRecordHtml } from '../../src/report/recordHtml.ts';
import { sequenceSteps } from '../../src/report/sequenceSteps.ts';
import { runWindows } from '../../src/windows.ts';
import catalogueRecord from '../../scenarios/record.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'browser');
const WIDTHS = [1400, 420] as const;
/** The diagrams kept as screenshots: the dual write's lost effect, and the widest diagram of the catalogue. */
const SHOWN = ['s-mercury-dual-write-commit-first-ce-1', 's-checkout-key-not-bound-ce-1'];

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

let unavailable: string | undefined;
let browser: Browser | undefined;
let profile: string | undefined;
let reportUrl = '';
let recordUrl = '';
/** Arrows each counterexample's diagram must draw, by its article id. */
const expectedArrows = new Map<string, number>();
const seen = new Map<number, Seen>();

beforeAll(async () => {
  unavailable = ensureChromium();
  if (unavailable !== undefined) {
    console.warn(`browser report test skipped: ${unavailable}`);
    return;
  }
  const catalogue = await loadCatalogue();
  const results = catalogue.map(({ scenario }) => runWindows(scenario));
  for (const r of results) {
    r.counterexamples.forEach((ce, i) => {
      const arrows = sequenceSteps(ce.trace).steps.filter((s) => s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped').length;
      expectedArrows.set(`s-${r.name}-ce-${i + 1}`, arrows);
    });
  }
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, 'report.html');
  writeFileSync(file, renderHtml(results));
  reportUrl = pathToFileURL(file).href;
  // The decision record, from the same runs; it sits beside report.html, which it links to.
  const recordFile = join(ARTIFACTS, 'record.html');
  const cited = backingScenarios(catalogueRecord);
  const record = buildDecisionRecord(
    catalogueRecord,
    cited.map((n) => results.find((r) => r.name === n)!),
    { scenarios: catalogue.map(({ scenario }) => scenario).filter((s) => cited.includes(s.name)) },
  );
  writeFileSync(recordFile, renderRecordHtml(record));
  recordUrl = pathToFileURL(recordFile).href;
  profile = mkdtempSync(join(tmpdir(), 'faultline-chromium-'));
  // Only the flags given here: no extension, no sync, no update check, no network of its own.
  browser = await puppeteer.launch({ executablePath: CHROMIUM, ignoreDefaultArgs: true, pipe: true, args: [...FLAGS, `--user-data-dir=${profile}`] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

/** Everything the checks need from the page, measured inside it. */
function measure(): Omit<Seen, 'width' | 'problems' | 'requests'> {
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
      if (g.classList.contains('phase') || g.classList.contains('omitted')) continue;
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
  return { brokenLinks, crossLinks, diagrams, clientWidth: root.clientWidth, scrollWidth: root.scrollWidth, tooWide, crossedWords, labelsChecked, messageLabels };
}

/** The ids each document of the set holds, by its URL without a fragment, loaded once. */
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

/** Opens the report at `width`, measures it and keeps screenshots. */
async function visit(width: number): Promise<Seen> {
  const page: Page = await browser!.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e instanceof Error ? e.message : String(e)}`));
  page.on('request', (r) => {
    if (r.url() !== reportUrl) requests.push(r.url());
  });
  await page.setViewport({ width, height: 900 });
  await page.goto(reportUrl, { waitUntil: 'load' });
  const measured = await page.evaluate(measure);
  await page.screenshot({ path: join(ARTIFACTS, `report-top-${width}.png`) });
  // A viewport as tall as a diagram, so each is captured whole without re-laying out the whole
  // page beyond the viewport, which costs seconds on a page this long.
  await page.setViewport({ width, height: 2600 });
  for (const id of SHOWN) {
    const el = await page.$(`#${id} .diagram`);
    if (el === null) continue;
    await el.scrollIntoView();
    await el.screenshot({ path: join(ARTIFACTS, `${id}-${width}.png`), captureBeyondViewport: false });
  }
  await page.close();
  return { width, problems, requests, ...measured };
}

describe.each(WIDTHS)('the HTML report in chromium at %ipx', (width) => {
  const at = async (skip: (note?: string) => never): Promise<Seen> => {
    if (unavailable !== undefined) skip(unavailable);
    let s = seen.get(width);
    if (s === undefined) {
      s = await visit(width);
      seen.set(width, s);
    }
    return s;
  };

  it('loads with no console error and asks for nothing outside itself', async ({ skip }) => {
    const s = await at(skip);
    expect(s.problems).toEqual([]);
    expect(s.requests).toEqual([]);
  });

  it('resolves every link, in the page and into another page of the set', async ({ skip }) => {
    const s = await at(skip);
    expect(s.brokenLinks).toEqual([]);
    expect(await unresolvedCrossLinks(s.crossLinks)).toEqual([]);
  });

  it('draws every counterexample with the arrows its trace holds', async ({ skip }) => {
    const s = await at(skip);
    expect(s.diagrams.map((d) => d.id)).toEqual([...expectedArrows.keys()]);
    expect(s.diagrams.length).toBeGreaterThan(0);
    for (const d of s.diagrams) {
      expect(d.width, d.id).toBeGreaterThan(0);
      expect(d.height, d.id).toBeGreaterThan(0);
      expect({ id: d.id, arrows: d.arrows, drawn: d.drawnArrows }).toEqual({ id: d.id, arrows: expectedArrows.get(d.id), drawn: expectedArrows.get(d.id) });
    }
  });

  it('keeps every word of a diagram on an opaque background, and no message label over any lifeline', async ({ skip }) => {
    const s = await at(skip);
    expect(s.labelsChecked).toBeGreaterThan(100);
    expect(s.messageLabels).toBe([...expectedArrows.values()].reduce((a, b) => a + b, 0));
    expect(s.crossedWords).toEqual([]);
  });

  it('fits the viewport: nothing wider than the page unless its box scrolls', async ({ skip }) => {
    const s = await at(skip);
    expect(s.tooWide).toEqual([]);
    expect(s.scrollWidth).toBeLessThanOrEqual(s.clientWidth);
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
  const measured = await page.evaluate(measure);
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

  it('resolves every link, in the page and into report.html beside it', async ({ skip }) => {
    const s = await at(skip);
    expect(s.brokenLinks).toEqual([]);
    // Each run of the Evidence section links to its section of report.html, at least.
    expect(s.crossLinks.filter((l) => new URL(l).pathname.endsWith('/report.html')).length).toBeGreaterThanOrEqual(backingScenarios(catalogueRecord).length);
    expect(await unresolvedCrossLinks(s.crossLinks)).toEqual([]);
  });

  it('fits the viewport: nothing wider than the page unless its box scrolls', async ({ skip }) => {
    const s = await at(skip);
    expect(s.tooWide).toEqual([]);
    expect(s.scrollWidth).toBeLessThanOrEqual(s.clientWidth);
  });
});
