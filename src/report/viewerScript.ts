// The step-through viewer of a counterexample, as the script a scenario page carries inline (no
// file, no network). Each viewer reads its steps from the JSON beside it (src/report/viewerData.ts)
// only when it first comes into view, so a page paints before any of it is parsed. It steps
// forward and back (buttons, the arrow keys, Home and End, or a click on an arrow of the
// diagram), shows each component's state, the rows its describer gives and the messages in
// flight after the step, marks the step's mark (the duplicate in red), highlights the step in
// the diagram, and filters components by a checkbox each. Everything is built with DOM calls
// and textContent, so no word of a trace is ever read as HTML. Without JavaScript the viewer
// stays hidden and the diagram and the steps in words are the page.
export const VIEWER_SCRIPT = `
(function () {
  'use strict';
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function stateAt(data, k) {
    var states = {}, parts = {}, flight = [], changed = {};
    for (var i = 0; i <= k; i++) {
      var s = data.steps[i];
      (s.s || []).forEach(function (x) { states[x[0]] = x[1]; if (i === k && k > 0) changed[x[0]] = true; });
      (s.d || []).forEach(function (x) { parts[x[0]] = x[1]; if (i === k && k > 0) changed[x[0]] = true; });
      if (s.f) flight = s.f;
    }
    return { states: states, parts: parts, flight: flight, changed: changed };
  }
  function card(data, i, now) {
    var c = el('div', 'card' + (now.changed[i] ? ' changed' : '') + (now.states[i] === 'down' ? ' down' : ''));
    c.setAttribute('data-component', data.c[i]);
    var h = el('div', 'card-head');
    h.appendChild(el('strong', null, data.c[i]));
    h.appendChild(el('span', 'state', now.states[i] || ''));
    c.appendChild(h);
    var parts = now.parts[i] || [];
    if (parts.length === 0) c.appendChild(el('div', 'empty', 'nothing durable'));
    parts.forEach(function (p) {
      var row = el('div', 'rows');
      row.appendChild(el('span', 'label', p[0] + ': '));
      row.appendChild(el('span', null, p[1].length === 0 ? 'empty' : p[1].join(', ')));
      c.appendChild(row);
    });
    return c;
  }
  function render(v) {
    var data = v.data, k = v.k, step = data.steps[k], now = stateAt(data, k);
    v.counter.textContent = 'step ' + k + ' of ' + (data.steps.length - 1) + (step.t ? ' · ' + step.t : '');
    v.now.textContent = step.w;
    v.now.className = 'now' + (step.m ? ' marked ' + step.m[0] : '');
    v.mark.textContent = step.m ? step.m[1] : '';
    v.mark.hidden = !step.m;
    v.back.disabled = k === 0;
    v.next.disabled = k === data.steps.length - 1;
    v.cards.textContent = '';
    data.c.forEach(function (name, i) { if (v.shown[name]) v.cards.appendChild(card(data, i, now)); });
    v.flight.textContent = '';
    var moving = now.flight.filter(function (m) { return v.shown[m[0]] || v.shown[m[1]]; });
    v.flight.appendChild(el('strong', null, 'In flight: '));
    v.flight.appendChild(document.createTextNode(moving.length === 0 ? 'nothing' : moving.map(function (m) { return m[0] + ' → ' + m[1] + ' ' + m[2]; }).join(' · ')));
    v.root.setAttribute('data-step-index', String(k));
    var svg = v.article && v.article.querySelector('svg.sequence');
    if (svg) {
      Array.prototype.forEach.call(svg.querySelectorAll('.current'), function (g) { g.classList.remove('current'); });
      if (step.a !== undefined) {
        var g = svg.querySelector('[data-step="' + step.a + '"]');
        if (g) g.classList.add('current');
      }
    }
  }
  function go(v, k) {
    v.k = Math.max(0, Math.min(v.data.steps.length - 1, k));
    render(v);
  }
  function filter(v) {
    var f = el('fieldset', 'filter');
    f.appendChild(el('legend', null, 'Components'));
    v.data.c.forEach(function (name) {
      var label = el('label');
      var box = el('input');
      box.type = 'checkbox';
      box.checked = v.shown[name];
      box.addEventListener('change', function () { v.shown[name] = box.checked; render(v); });
      label.appendChild(box);
      label.appendChild(document.createTextNode(' ' + name));
      f.appendChild(label);
    });
    return f;
  }
  function build(root) {
    var source = document.getElementById(root.getAttribute('data-viewer'));
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var v = { root: root, data: data, k: 0, shown: {}, article: root.closest('article') };
    data.c.forEach(function (name) { v.shown[name] = data.p.indexOf(name) >= 0; });
    var bar = el('div', 'controls');
    v.back = el('button', 'back', '◀ Back');
    v.next = el('button', 'next', 'Next ▶');
    v.back.type = v.next.type = 'button';
    v.counter = el('span', 'counter');
    bar.appendChild(v.back); bar.appendChild(v.counter); bar.appendChild(v.next);
    v.now = el('p', 'now');
    v.mark = el('p', 'mark');
    v.cards = el('div', 'cards');
    v.flight = el('p', 'flight');
    [bar, v.now, v.mark, filter(v), v.cards, v.flight].forEach(function (e) { root.appendChild(e); });
    v.back.addEventListener('click', function () { go(v, v.k - 1); });
    v.next.addEventListener('click', function () { go(v, v.k + 1); });
    root.addEventListener('keydown', function (e) {
      var to = e.key === 'ArrowRight' ? v.k + 1 : e.key === 'ArrowLeft' ? v.k - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? data.steps.length - 1 : undefined;
      if (to === undefined) return;
      e.preventDefault();
      go(v, to);
    });
    var svg = v.article && v.article.querySelector('svg.sequence');
    if (svg) svg.addEventListener('click', function (e) {
      var g = e.target.closest && e.target.closest('[data-step]');
      if (!g) return;
      var at = Number(g.getAttribute('data-step'));
      for (var i = 0; i < data.steps.length; i++) if (data.steps[i].a === at) { go(v, i); root.focus(); return; }
    });
    root.hidden = false;
    root.removeAttribute('hidden');
    render(v);
  }
  function start() {
    var roots = Array.prototype.slice.call(document.querySelectorAll('[data-viewer]'));
    if (!('IntersectionObserver' in window)) { roots.forEach(build); return; }
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        seen.unobserve(e.target);
        build(e.target.querySelector('[data-viewer]') || e.target);
      });
    }, { rootMargin: '600px' });
    roots.forEach(function (r) { seen.observe(r.closest('article') || r); });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
`;
