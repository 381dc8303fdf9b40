// sudokit workbench: the page over the JSON API. Plain JavaScript, no build step.
//
// The page keeps one puzzle: `values` (0 = empty) and, per cell, where its digit came from
// (`kind`: given / entry / solved / hint). Candidates (pencil marks) are bitmasks (bit d-1 = digit d)
// as the library keeps them: computed here from the units, or entered by the user, and narrowed by
// applied hints. Conflicts are found here at every change. Every change can be undone; the puzzle and
// the user's digits are kept in the address (#p=...&e=...&v=...).
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  info: null,
  variant: "standard",
  geometry: null,
  values: [],
  kind: [],
  masks: null, // candidate bitmasks (computed, entered, narrowed by hints), or null
  showCands: false,
  pencil: false, // digits typed toggle candidates
  notation: "A1", // "A1" (rows A-I, the library's 9x9 names) or "rc" (r1c1)
  past: [], // undo snapshots
  future: [], // redo snapshots
  file: null, // {text, name, found, index} when the loaded text holds several puzzles
  checked: new Map(), // puzzle line -> what is wrong with it ("" when it has one solution)
  selected: 0,
  steps: null, // [{...step, values, masks}] while stepping through a hint or an explanation
  stepIndex: 0,
  stepMode: "", // "hint" or "explain"
  busy: false,
};

// ---- talking to the API --------------------------------------------------------------------
async function api(path, body) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60000);
  try {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      throw new Error(`the server answered ${response.status} without JSON`);
    }
    if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
    return data;
  } catch (e) {
    if (e.name === "AbortError") throw new Error("the server did not answer in time");
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", kind === "error");
  el.dataset.status = kind || "";
}

async function busy(label, work) {
  if (state.busy) return;
  state.busy = true;
  const buttons = document.querySelectorAll("#controls button, #steps button, #file-nav button, #edit-bar button");
  buttons.forEach((b) => (b.disabled = true));
  setStatus(label + "…", "busy");
  try {
    await work();
  } catch (e) {
    setStatus(speak(e.message), "error");
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    state.busy = false;
    updateStepButtons();
    updateUndoButtons();
    showFileNav();
    updateNotationButton();
  }
}

// ---- cell names ----------------------------------------------------------------------------
// The library names 9x9 cells A1..I9 (rows A-I, columns 1-9: the seeds' labels) and other sizes r1c1.
// On 9x9 the page can use either; the server's sentences are rewritten to the chosen one.
function rcNames() {
  return state.notation === "rc" || state.geometry.size !== 9;
}

function cellName(s) {
  const n = state.geometry.size;
  return rcNames() ? `r${Math.floor(s / n) + 1}c${(s % n) + 1}` : state.geometry.labels[s];
}

function rowName(r) {
  return rcNames() ? String(r + 1) : "ABCDEFGHI"[r];
}

function names(text, size) {
  // size: the board the sentence is about (the shown board's by default; a variant puzzle passes its own)
  const n = size || (state.geometry && state.geometry.size);
  if (!text || n !== 9 || state.notation !== "rc") return text || "";
  const row = (letter) => "ABCDEFGHI".indexOf(letter) + 1;
  return text
    .replace(/\b([A-I])([1-9])\b/g, (m, r, c) => `r${row(r)}c${c}`)
    .replace(/\brow ([A-I])\b/g, (m, r) => `row ${row(r)}`);
}

function setNotation(notation) {
  state.notation = notation === "rc" ? "rc" : "A1";
  try {
    localStorage.setItem("sudokit-notation", state.notation);
  } catch (e) {
    /* storage may be off: the choice then lasts for this page */
  }
  updateNotationButton();
  if (state.geometry) {
    buildLabels();
    if (state.steps) showStep();
    render();
  }
}

function updateNotationButton() {
  // the names in use: on boards other than 9x9 always r1c1 (letters are digits there)
  const button = $("notation");
  const fixed = state.geometry && state.geometry.size !== 9;
  const rc = state.notation === "rc" || fixed;
  button.setAttribute("aria-pressed", String(rc));
  button.textContent = `Cell names: ${rc ? "r1c1" : "A1"}`;
  button.disabled = Boolean(fixed) || state.busy;
  button.title = fixed
    ? "Boards other than 9x9 name cells r1c1: their letters are digits"
    : "Name cells A1–I9 (rows A–I) or r1c1–r9c9";
}

// ---- the puzzle ----------------------------------------------------------------------------
function puzzleLine(values) {
  const symbols = state.geometry.symbols;
  return (values || state.values).map((v) => (v ? symbols[v - 1] : ".")).join("");
}

function request(extra) {
  return Object.assign({ puzzle: puzzleLine(), variant: state.variant }, extra || {});
}

function setGeometry(geometry, variant) {
  state.geometry = geometry;
  state.variant = variant;
  const n = geometry.n_cells || geometry.size * geometry.size;
  state.values = new Array(n).fill(0);
  state.kind = new Array(n).fill("");
  state.masks = null;
  state.selected = Math.min(state.selected, n - 1);
  state.past = [];
  state.future = [];
  updateNotationButton();
  buildBoard();
  buildLabels();
}

function loadValues(values, kind) {
  if (state.values.some((v) => v)) record(); // a new board after setGeometry has nothing to go back to
  state.values = values.slice();
  state.kind = values.map((v) => (v ? kind : ""));
  state.masks = null;
  changed();
}

function changed() {
  // the digits changed: old steps are stale; shown candidates are computed again
  closeSteps();
  if (state.showCands && !state.masks) state.masks = computedMasks(state.values);
  render();
  saveToAddress();
}

// ---- candidates ----------------------------------------------------------------------------
function peersOf(s) {
  const out = new Set();
  for (const u of state.geometry.units) if (u.includes(s)) for (const p of u) if (p !== s) out.add(p);
  return out;
}

function cellMask(values, s) {
  const all = (1 << state.geometry.size) - 1;
  let used = 0;
  for (const p of peersOf(s)) if (values[p]) used |= 1 << (values[p] - 1);
  return values[s] ? 0 : all & ~used;
}

function computedMasks(values) {
  return values.map((v, s) => cellMask(values, s));
}

function placeInMasks(s, d) {
  // a digit placed in s: s has no candidates left and its peers lose d
  if (!state.masks) return;
  state.masks[s] = 0;
  for (const p of peersOf(s)) state.masks[p] &= ~(1 << (d - 1));
}

function clearInMasks(s, d) {
  // s emptied: it gets its candidates back, and its empty peers get d back where no peer of theirs holds it
  if (!state.masks) return;
  state.masks[s] = cellMask(state.values, s);
  if (!d) return;
  for (const p of peersOf(s)) if (!state.values[p] && cellMask(state.values, p) & (1 << (d - 1))) state.masks[p] |= 1 << (d - 1);
}

function hintMasks() {
  // the candidates the logic starts from: a cell the user has not pencilled (no mark) is left open
  if (!state.masks) return null;
  const all = (1 << state.geometry.size) - 1;
  return state.masks.map((m, s) => (state.values[s] ? 0 : m || all));
}

// ---- undo and redo -------------------------------------------------------------------------
function snapshot() {
  return {
    values: state.values.slice(),
    kind: state.kind.slice(),
    masks: state.masks ? state.masks.slice() : null,
    showCands: state.showCands,
  };
}

function record() {
  if (!state.geometry || !state.values.length) return;
  state.past.push(snapshot());
  if (state.past.length > 1000) state.past.shift();
  state.future = [];
  updateUndoButtons();
}

function restore(snap) {
  state.values = snap.values;
  state.kind = snap.kind;
  state.masks = snap.masks;
  state.showCands = snap.showCands;
  $("candidates-toggle").setAttribute("aria-pressed", String(state.showCands));
  closeSteps();
  render();
  saveToAddress();
  updateUndoButtons();
}

function undo() {
  if (!state.past.length) return;
  state.future.push(snapshot());
  restore(state.past.pop());
  setStatus("Undone", "undone");
}

function redo() {
  if (!state.future.length) return;
  state.past.push(snapshot());
  restore(state.future.pop());
  setStatus("Redone", "redone");
}

function updateUndoButtons() {
  $("undo").disabled = state.busy || !state.past.length;
  $("redo").disabled = state.busy || !state.future.length;
}

// ---- the address keeps the puzzle ------------------------------------------------------------
function saveToAddress() {
  if (!state.geometry) return;
  const givens = state.values.map((v, s) => (state.kind[s] === "given" ? v : 0));
  const entries = state.values.map((v, s) => (v && state.kind[s] !== "given" ? v : 0));
  const parts = [];
  if (givens.some((v) => v)) parts.push("p=" + puzzleLine(givens));
  if (entries.some((v) => v)) parts.push("e=" + puzzleLine(entries));
  if (state.variant !== "standard" || state.geometry.size !== 9) {
    const entry = state.info.variants.find((m) => m.variant === state.variant);
    parts.push("v=" + encodeURIComponent(state.variant));
    if (!entry && !/x/.test(state.variant)) parts.push("n=" + state.geometry.size);
  }
  const hash = parts.length ? "#" + parts.join("&") : "";
  if (hash !== location.hash) history.replaceState(null, "", hash || location.pathname + location.search);
}

function readAddress() {
  const fields = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const i = part.indexOf("=");
    if (i > 0) fields[part.slice(0, i)] = decodeURIComponent(part.slice(i + 1));
  }
  return fields;
}

async function loadFromAddress() {
  const f = readAddress();
  if (!f.p && !f.e && !f.v) return false;
  const variant = f.v || "standard";
  const size = Number(f.n) || Math.round(Math.sqrt((f.p || f.e || "").length)) || 9;
  await busy("Reading the address", async () => {
    let result;
    if (f.p) {
      result = await api("/api/parse", { text: f.p, variant });
    } else {
      result = await api("/api/geometry", { variant, size });
      result.values = new Array(result.geometry.size * result.geometry.size).fill(0);
    }
    setGeometry(result.geometry, result.variant);
    syncVariantMenu();
    state.values = result.values.slice();
    state.kind = result.values.map((v) => (v ? "given" : ""));
    const symbols = state.geometry.symbols;
    if (f.e && f.e.length === state.values.length) {
      for (let s = 0; s < f.e.length; s++) {
        const d = symbols.indexOf(f.e[s].toUpperCase()) + 1;
        if (d > 0 && !state.values[s]) {
          state.values[s] = d;
          state.kind[s] = "entry";
        }
      }
    }
    changed();
    const typed = state.kind.filter((k) => k === "entry").length;
    const givens = state.kind.filter((k) => k === "given").length;
    setStatus(`Puzzle from the address: ${givens} givens${typed ? `, ${typed} of your digits` : ""}`, "loaded");
  });
  return true;
}

function conflicts(values) {
  const bad = new Set();
  for (const unit of state.geometry.units) {
    const seen = new Map();
    for (const s of unit) {
      const v = values[s];
      if (!v) continue;
      if (seen.has(v)) {
        bad.add(s);
        bad.add(seen.get(v));
      } else seen.set(v, s);
    }
  }
  return bad;
}

// ---- drawing the board ---------------------------------------------------------------------
function buildBoard() {
  const g = state.geometry;
  const n = g.size;
  const board = $("board");
  board.style.setProperty("--n", n);
  board.replaceChildren();
  const extra = new Set();
  for (const u of g.extra_units) for (const s of g.units[u]) extra.add(s);
  for (let s = 0; s < n * n; s++) {
    const r = Math.floor(s / n);
    const c = s % n;
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.cell = s;
    cell.setAttribute("role", "gridcell");
    const reg = g.region[s];
    if (c > 0 && g.region[s - 1] !== reg) cell.classList.add("bl");
    if (r > 0 && g.region[s - n] !== reg) cell.classList.add("bt");
    if (c === n - 1) cell.classList.add("last-col");
    if (r === n - 1) cell.classList.add("last-row");
    if (extra.has(s)) cell.classList.add("extra");
    cell.addEventListener("mousedown", (e) => {
      e.preventDefault();
      state.selected = s;
      board.focus();
      render();
    });
    board.appendChild(cell);
  }
}

function buildLabels() {
  const g = state.geometry;
  const n = g.size;
  const cols = $("col-labels");
  const rows = $("row-labels");
  cols.style.setProperty("--n", n);
  rows.style.setProperty("--n", n);
  cols.replaceChildren();
  rows.replaceChildren();
  for (let i = 0; i < n; i++) {
    const c = document.createElement("span");
    c.textContent = String(i + 1);
    cols.appendChild(c);
    const r = document.createElement("span");
    r.textContent = rowName(i);
    rows.appendChild(r);
  }
}

function candidateWidth(n) {
  for (let w = Math.ceil(Math.sqrt(n)); w <= n; w++) if (w * Math.ceil(n / w) >= n) return w;
  return n;
}

function render() {
  const g = state.geometry;
  if (!g) return;
  const step = state.steps ? state.steps[state.stepIndex] : null;
  const values = step ? step.values : state.values;
  const masks = step ? step.masks : state.masks;
  const showCands = step ? true : state.showCands && masks;
  const bad = conflicts(values);
  const hl = highlightSets(step);
  const n = g.size;
  const cw = candidateWidth(n);
  const cells = $("board").children;
  const selectedPeers = new Set();
  if (!step) for (const u of g.units) if (u.includes(state.selected)) for (const s of u) selectedPeers.add(s);
  for (let s = 0; s < cells.length; s++) {
    const cell = cells[s];
    cell.classList.toggle("selected", !step && s === state.selected);
    cell.classList.toggle("peer", !step && selectedPeers.has(s) && s !== state.selected);
    cell.classList.toggle("conflict", bad.has(s));
    cell.classList.toggle("cell-hl", hl.cells.has(s));
    cell.classList.toggle("unit-hl", hl.unitCells.has(s));
    cell.replaceChildren();
    const v = values[s];
    if (v) {
      const span = document.createElement("span");
      span.className = "value " + (step && state.values[s] !== v ? "hint" : state.kind[s]);
      span.textContent = g.symbols[v - 1];
      cell.appendChild(span);
      cell.setAttribute("aria-label", `${cellName(s)} ${g.symbols[v - 1]}`);
    } else if (showCands && masks) {
      const box = document.createElement("div");
      box.className = "cands";
      box.style.setProperty("--cw", cw);
      // fixed rows and columns: digit d always sits in the same spot, where its links start
      box.style.gridTemplateColumns = `repeat(${cw}, minmax(0, 1fr))`;
      box.style.gridTemplateRows = `repeat(${Math.ceil(n / cw)}, minmax(0, 1fr))`;
      for (let d = 1; d <= n; d++) {
        const span = document.createElement("span");
        if (masks[s] & (1 << (d - 1))) {
          span.textContent = g.symbols[d - 1];
          const key = s * 64 + d;
          if (hl.place.has(key)) span.className = "place";
          else if (hl.elim.has(key)) span.className = "elim";
          else if (hl.cands.has(key)) span.className = "cand-hl";
        }
        box.appendChild(span);
      }
      cell.appendChild(box);
      cell.setAttribute("aria-label", `${cellName(s)} empty`);
    } else {
      cell.setAttribute("aria-label", `${cellName(s)} empty`);
    }
  }
  drawLinks(step, values, showCands && masks ? masks : null);
  $("pencil").setAttribute("aria-pressed", String(state.pencil));
  $("board").classList.toggle("pencil", state.pencil);
}

// ---- chain links ---------------------------------------------------------------------------
// A step's links are drawn over the board from candidate to candidate: strong links solid, weak links
// dashed, with an arrow head. A link is straight when no digit or candidate is in its way, else it bends
// (the smallest bend, either side, that clears the most); a link inside one cell always bends so it is
// seen. The same rule draws links in the pictures (sudokit.render.scene.link_path).
const BENDS = [0, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5, 0.7, -0.7];
const CELL_BENDS = [0.9, -0.9, 1.4, -1.4];
const SVG_NS = "http://www.w3.org/2000/svg";

function bezier(p0, c, p1, t) {
  const u = 1 - t;
  return [u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0], u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1]];
}

function linkPath(p1, p2, obstacles, n, spot) {
  const length = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
  if (length < 1e-9) return null;
  const nx = -(p2[1] - p1[1]) / length;
  const ny = (p2[0] - p1[0]) / length;
  const mx = (p1[0] + p2[0]) / 2;
  const my = (p1[1] + p2[1]) / 2;
  let best = null;
  let bestCost = Infinity;
  for (const bend of spot ? CELL_BENDS.map((b) => (b * spot) / length) : BENDS) {
    const c = [mx + nx * bend * length, my + ny * bend * length];
    let cost = Math.abs(bend) * 0.01;
    for (let i = 2; i < 19; i++) {
      const [x, y] = bezier(p1, c, p2, i / 20);
      if (x < 0 || y < 0 || x > n || y > n) cost += 0.5;
      for (const [ox, oy, r] of obstacles) if ((x - ox) ** 2 + (y - oy) ** 2 < r * r) cost += 1;
    }
    if (cost < bestCost) {
      best = bend === 0 ? null : c;
      bestCost = cost;
    }
    if (cost < 0.5) break;
  }
  return best;
}

function drawLinks(step, values, masks) {
  const svg = $("links");
  const g = state.geometry;
  const n = g.size;
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.replaceChildren();
  const links = step ? step.links || [] : [];
  if (!links.length) return;
  const cw = candidateWidth(n);
  const rows = Math.ceil(n / cw);
  const spotOf = (s, d) => [(s % n) + ((d - 1) % cw + 0.5) / cw, Math.floor(s / n) + (Math.floor((d - 1) / cw) + 0.5) / rows];
  const radius = 0.46 / Math.max(cw, rows);
  const obstacles = [];
  for (let s = 0; s < values.length; s++) {
    if (values[s]) obstacles.push([(s % n) + 0.5, Math.floor(s / n) + 0.5, 0.3]);
    else if (masks) for (let d = 1; d <= n; d++) if (masks[s] & (1 << (d - 1))) obstacles.push([...spotOf(s, d), radius * 0.8]);
  }
  const defs = document.createElementNS(SVG_NS, "defs");
  const marker = document.createElementNS(SVG_NS, "marker");
  marker.setAttribute("id", "link-head");
  marker.setAttribute("viewBox", "0 0 10 10");
  marker.setAttribute("refX", "9");
  marker.setAttribute("refY", "5");
  marker.setAttribute("markerWidth", "5");
  marker.setAttribute("markerHeight", "5");
  marker.setAttribute("orient", "auto-start-reverse");
  const head = document.createElementNS(SVG_NS, "path");
  head.setAttribute("d", "M0,0 L10,5 L0,10 z");
  head.setAttribute("class", "link-head");
  marker.appendChild(head);
  defs.appendChild(marker);
  svg.appendChild(defs);
  const width = Math.max(0.03, 1.6 / 52);
  for (const [[s1, d1], [s2, d2], strong] of links) {
    const p1 = spotOf(s1, d1);
    const p2 = spotOf(s2, d2);
    const others = obstacles.filter(([x, y]) => !(x === p1[0] && y === p1[1]) && !(x === p2[0] && y === p2[1]));
    const control = linkPath(p1, p2, others, n, s1 === s2 ? 1 / Math.max(cw, rows) : 0);
    const trim = radius * (s1 === s2 ? 0.85 : 1.05);
    const toward = (p, q) => {
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
      return [p[0] + ((q[0] - p[0]) / len) * trim, p[1] + ((q[1] - p[1]) / len) * trim];
    };
    const a = toward(p1, control || p2);
    const b = toward(p2, control || p1);
    const f = (x) => x.toFixed(3);
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute(
      "d",
      control ? `M${f(a[0])},${f(a[1])} Q${f(control[0])},${f(control[1])} ${f(b[0])},${f(b[1])}` : `M${f(a[0])},${f(a[1])} L${f(b[0])},${f(b[1])}`
    );
    path.setAttribute("class", strong ? "link strong" : "link weak");
    path.setAttribute("stroke-width", String(width));
    if (!strong) path.setAttribute("stroke-dasharray", `${width * 3} ${width * 2}`);
    path.setAttribute("marker-end", "url(#link-head)");
    path.dataset.from = `${s1}:${d1}`;
    path.dataset.to = `${s2}:${d2}`;
    svg.appendChild(path);
  }
}

function highlightSets(step) {
  const out = { cells: new Set(), unitCells: new Set(), cands: new Set(), elim: new Set(), place: new Set() };
  if (!step) return out;
  for (const s of step.cells || []) out.cells.add(s);
  for (const u of step.units || []) for (const s of state.geometry.units[u]) out.unitCells.add(s);
  for (const [s, d] of step.candidates || []) out.cands.add(s * 64 + d);
  for (const [s, d] of step.eliminations || []) out.elim.add(s * 64 + d);
  for (const [s, d] of step.placements || []) {
    out.place.add(s * 64 + d);
    out.cells.add(s);
  }
  return out;
}

// ---- keyboard ------------------------------------------------------------------------------
function onBoardKey(e) {
  if (!state.geometry) return;
  if (state.steps) {
    if (e.key === "PageDown" || e.key === "n") moveStep(1);
    else if (e.key === "PageUp" || e.key === "p") moveStep(-1);
    else if (e.key === "Escape") closeSteps();
    else return;
    e.preventDefault();
    return;
  }
  const n = state.geometry.size;
  const r = Math.floor(state.selected / n);
  const c = state.selected % n;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[e.key]) {
    const [dr, dc] = moves[e.key];
    const nr = Math.min(n - 1, Math.max(0, r + dr));
    const nc = Math.min(n - 1, Math.max(0, c + dc));
    state.selected = nr * n + nc;
    e.preventDefault();
    render();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const s = state.selected;
  if (e.key === "Backspace") {
    // like a text field: clear this cell, or the one before when this one is empty
    e.preventDefault();
    if (!state.values[s] && s > 0) state.selected = s - 1;
    setCell(state.selected, 0);
    return;
  }
  if (["Delete", "0", ".", " "].includes(e.key)) {
    e.preventDefault();
    setCell(s, 0);
    return;
  }
  // Shift+digit pencils a candidate: read the key's position, since Shift changes its character
  const typed = e.shiftKey && /^(Digit|Numpad)[0-9]$/.test(e.code) ? e.code.slice(-1) : e.key;
  if (typed.length === 1) {
    const d = state.geometry.symbols.indexOf(typed.toUpperCase()) + 1;
    if (d > 0) {
      e.preventDefault();
      if (state.pencil || e.shiftKey) toggleMark(s, d);
      else {
        setCell(s, d);
        if (state.values[s] === d) state.selected = Math.min(s + 1, state.values.length - 1);
        render();
      }
    }
  }
}

function onPageKey(e) {
  // undo and redo anywhere but in a text field
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  const key = e.key.toLowerCase();
  if (key === "z" && !e.shiftKey) undo();
  else if (key === "y" || (key === "z" && e.shiftKey)) redo();
  else return;
  e.preventDefault();
}

function setCell(s, d) {
  if (state.kind[s] === "given" && state.values[s] && d !== state.values[s]) {
    setStatus(`${cellName(s)} is a given of the loaded puzzle (Clear to start over)`, "error");
    return;
  }
  if (state.values[s] === d) return;
  record();
  const old = state.values[s];
  state.values[s] = d;
  state.kind[s] = d ? (state.kind[s] === "given" ? "given" : "entry") : "";
  if (d) placeInMasks(s, d);
  else clearInMasks(s, old);
  changed();
  const bad = conflicts(state.values);
  if (bad.size) {
    const cells = [...bad].sort((a, b) => a - b);
    setStatus(`Conflict: ${cells.map((x) => cellName(x)).join(", ")}`, "error");
  } else {
    const count = state.values.filter((v) => v).length;
    setStatus(`${count} ${count === 1 ? "digit" : "digits"} on the board`, "");
  }
}

function toggleMark(s, d) {
  if (state.values[s]) {
    setStatus(`${cellName(s)} holds a digit: clear it to pencil candidates`, "error");
    return;
  }
  record();
  if (!state.masks) state.masks = state.values.map(() => 0); // pencil marks start from a clean sheet
  state.masks[s] ^= 1 << (d - 1);
  if (!state.showCands) {
    state.showCands = true;
    $("candidates-toggle").setAttribute("aria-pressed", "true");
  }
  closeSteps();
  render();
  const on = state.masks[s] & (1 << (d - 1));
  setStatus(`${on ? "Pencilled" : "Removed"} ${state.geometry.symbols[d - 1]} ${on ? "in" : "from"} ${cellName(s)}`, "pencil");
}

function togglePencil() {
  state.pencil = !state.pencil;
  render();
  setStatus(state.pencil ? "Pencil marks: digits you type add or remove candidates" : "Digits you type fill cells", "");
  $("board").focus();
}

function fillCandidates() {
  record();
  state.masks = computedMasks(state.values);
  state.showCands = true;
  $("candidates-toggle").setAttribute("aria-pressed", "true");
  closeSteps();
  render();
  setStatus("Every empty cell holds the digits no peer holds", "");
}

// ---- actions -------------------------------------------------------------------------------
function describeStats(stats) {
  const ms = (stats.seconds * 1000).toFixed(2);
  return `${ms} ms, ${stats.guesses} guesses`;
}

async function solve() {
  await busy("Solving", async () => {
    clearSolved();
    const result = await api("/api/solve", request());
    const words = {
      solved: "Unique solution",
      multiple: `Several solutions (at least ${result.count}): press Count to count them`,
      no_solution: result.message ? `No solution: ${names(result.message)}` : "No solution",
      invalid: `Invalid: ${result.message}`,
      timeout: "Gave up (time limit)",
    };
    if (result.solution) {
      record();
      for (let s = 0; s < state.values.length; s++) {
        if (!state.values[s]) {
          state.values[s] = result.solution[s];
          state.kind[s] = "solved";
        }
      }
      changed();
    }
    const text = words[result.status] || result.status;
    setStatus(result.status === "solved" ? `${text} (${describeStats(result.stats)})` : text, result.status);
  });
}

function clearSolved() {
  const solved = state.kind.map((k, s) => (k === "solved" ? s : -1)).filter((s) => s >= 0);
  if (!solved.length) return;
  record();
  for (const s of solved) {
    state.values[s] = 0;
    state.kind[s] = "";
  }
  if (state.masks) for (const s of solved) state.masks[s] = cellMask(state.values, s);
  changed();
}

async function count() {
  await busy("Counting", async () => {
    const result = await api("/api/count", request({ limit: 1000 }));
    const how = result.exact ? `${result.count}` : `at least ${result.count}`;
    const word = result.count === 1 && result.exact ? "solution" : "solutions";
    setStatus(`${how} ${word}`, result.exact ? "counted" : "counted-limit");
  });
}

async function toggleCandidates() {
  state.showCands = !state.showCands;
  $("candidates-toggle").setAttribute("aria-pressed", String(state.showCands));
  if (state.showCands && !state.masks) state.masks = computedMasks(state.values);
  render();
  setStatus(state.showCands ? "Candidates shown" : "Candidates hidden", "");
}

function givenValues() {
  // the puzzle itself: its givens, or every digit when the puzzle was typed in
  const any = state.kind.some((k) => k === "given");
  return state.values.map((v, s) => (!any || state.kind[s] === "given" ? v : 0));
}

async function puzzleTrouble() {
  // What is wrong with the puzzle itself, asked once per puzzle: {stop, text}, or null when it has one
  // solution. `stop` means no step can be shown (empty board, clashing givens, no solution).
  const values = givenValues();
  const line = puzzleLine(values);
  const key = `${state.variant} ${line}`;
  if (state.checked.has(key)) return state.checked.get(key);
  let trouble = null;
  if (!values.some((v) => v)) {
    trouble = { stop: true, text: "The board is empty: type, paste or open a puzzle first" };
  } else {
    const check = await api("/api/check", { puzzle: line, variant: state.variant });
    if (check.conflicts.length) {
      const clash = names(check.conflicts[0].message);
      trouble = { stop: true, text: `This puzzle has no solution: its givens contradict each other (${clash})` };
    } else {
      const result = await api("/api/solve", { puzzle: line, variant: state.variant });
      if (result.status === "no_solution") {
        trouble = {
          stop: true,
          text: "This puzzle has no solution: no digit repeats, but its givens cannot all hold at once, so there is no step to show",
        };
      } else if (result.status === "multiple") {
        trouble = {
          stop: false,
          text: "This puzzle has several solutions, so hints leave out the techniques that assume only one",
        };
      }
    }
  }
  state.checked.set(key, trouble);
  return trouble;
}

function speak(message) {
  // an error as a page user reads it: a call stopped at its time limit says so in words
  const late = /^(solve|count|hint|explain|generate|rate): gave up after (.+)$/.exec(message || "");
  if (late) {
    const what = { explain: "explanation", generate: "generator", solve: "solver", count: "count" }[late[1]] || late[1];
    return `Stopped: the ${what} took longer than ${late[2]}, the server's limit`;
  }
  return sentence(message);
}

function sentence(text) {
  text = names(text || "");
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

async function hint() {
  await busy("Looking for a step", async () => {
    const trouble = await puzzleTrouble();
    if (trouble && trouble.stop) {
      setStatus(trouble.text, "unsolvable");
      return;
    }
    const body = request();
    const masks = hintMasks();
    if (masks) body.candidates = masks;
    const result = await api("/api/hint", body);
    if (!result.step) {
      setStatus(sentence(result.message), "stuck");
      return;
    }
    openSteps([result.step], "hint");
    const note = trouble ? `${trouble.text}. ` : "";
    setStatus(`${note}Next step found: read it below, then apply it or close it`, "hint");
  });
}

function applyHint() {
  const step = state.steps && state.steps[state.stepIndex];
  if (!step) return;
  record();
  const g = state.geometry;
  const masks = step.masks.slice();
  for (const [s, d] of step.eliminations || []) masks[s] &= ~(1 << (d - 1));
  for (const [s, d] of step.placements || []) {
    state.values[s] = d;
    state.kind[s] = "hint";
    masks[s] = 0;
    for (const u of g.units) if (u.includes(s)) for (const p of u) masks[p] &= ~(1 << (d - 1));
  }
  closeSteps();
  state.masks = masks;
  if ((step.eliminations || []).length && !state.showCands) {
    state.showCands = true;
    $("candidates-toggle").setAttribute("aria-pressed", "true");
  }
  setStatus(`Applied: ${names(step.explanation)}`, "applied");
  render();
  saveToAddress();
}

async function explainAll() {
  await busy("Explaining", async () => {
    const trouble = await puzzleTrouble();
    if (trouble && trouble.stop) {
      setStatus(trouble.text, "unsolvable");
      return;
    }
    const body = request();
    const masks = hintMasks(); // the whole path starts from the user's pencil marks, as a hint does
    if (masks) body.candidates = masks;
    const result = await api("/api/explain", body);
    if (!result.steps.length) {
      setStatus(sentence(result.message || "no step to explain"), "stuck");
      return;
    }
    openSteps(result.steps, "explain");
    const rating = result.rating !== null && result.rating !== undefined ? ` (rating ${result.rating})` : "";
    const note = trouble ? `${trouble.text}. ` : "";
    setStatus(note + sentence(result.message) + rating, result.solved ? "explained" : "stuck");
  });
}

function openSteps(steps, mode) {
  state.steps = steps;
  state.stepIndex = 0;
  state.stepMode = mode;
  $("steps").hidden = false;
  showStep();
}

function closeSteps() {
  if (!state.steps) return;
  state.steps = null;
  $("steps").hidden = true;
  render();
}

function moveStep(delta) {
  if (!state.steps) return;
  state.stepIndex = Math.max(0, Math.min(state.steps.length - 1, state.stepIndex + delta));
  showStep();
}

function showStep() {
  const step = state.steps[state.stepIndex];
  $("step-count").textContent =
    state.stepMode === "hint"
      ? `Hint: ${step.technique}`
      : `Step ${state.stepIndex + 1} of ${state.steps.length}: ${step.technique}`;
  $("explanation").textContent = names(step.explanation);
  $("link-legend").hidden = !(step.links || []).length;
  updateStepButtons();
  render();
}

function updateStepButtons() {
  const many = state.steps && state.steps.length > 1;
  $("prev-step").hidden = !many;
  $("next-step").hidden = !many;
  $("apply-hint").hidden = !(state.steps && state.stepMode === "hint");
  if (state.steps) {
    $("prev-step").disabled = state.busy || state.stepIndex === 0;
    $("next-step").disabled = state.busy || state.stepIndex === state.steps.length - 1;
  }
}

async function loadText(text, name, index) {
  index = index || 0;
  await busy(index ? `Reading puzzle ${index + 1}` : "Reading", async () => {
    const result = await api("/api/parse", { text, name: name || "", variant: state.variant, index });
    setGeometry(result.geometry, result.variant);
    syncVariantMenu();
    loadValues(result.values, "given");
    state.file = result.found > 1 ? { text, name: name || "", found: result.found, index } : null;
    $("puzzle-number").blur();
    showFileNav();
    const from = name ? ` from ${name}` : "";
    const which = state.file ? `Puzzle ${index + 1} of ${foundText(result.found)}${from}: ` : `Loaded${from}: `;
    const clash = result.conflicts.length ? `; conflict: ${names(result.conflicts[0].message)}` : "";
    setStatus(`${which}${result.givens} givens${clash}`, result.conflicts.length ? "error" : "loaded");
  });
}

function foundText(found) {
  return found >= 1000 ? "1000+" : String(found);
}

function showFileNav() {
  const f = state.file;
  $("file-nav").hidden = !f;
  if (!f) return;
  $("puzzle-counter").textContent = `${f.index + 1} / ${foundText(f.found)}`;
  $("file-name").textContent = f.name;
  $("puzzle-number").value = String(f.index + 1);
  $("puzzle-number").max = String(f.found);
  $("prev-puzzle").disabled = state.busy || f.index === 0;
  $("next-puzzle").disabled = state.busy || (f.found < 1000 && f.index >= f.found - 1);
}

function goToPuzzle(index) {
  const f = state.file;
  if (!f || index === f.index || !Number.isInteger(index)) return;
  if (index < 0 || (f.found < 1000 && index >= f.found)) {
    setStatus(`The file holds puzzles 1 to ${foundText(f.found)}`, "error");
    $("puzzle-number").value = String(f.index + 1);
    return;
  }
  loadText(f.text, f.name, index);
}

function syncVariantMenu() {
  const menu = state.info.variants;
  const size = state.geometry.size;
  let i = menu.findIndex((m) => m.variant === state.variant && m.size === size);
  if (i < 0 && state.variant === "standard") i = menu.findIndex((m) => m.size === size && /^\d+x\d+$/.test(m.variant));
  if (i >= 0) $("variant").value = String(i);
}

async function changeVariant() {
  const entry = state.info.variants[Number($("variant").value)];
  await busy("Switching board", async () => {
    const keep = state.geometry && state.geometry.size === entry.size ? state.values.slice() : null;
    const kinds = keep ? state.kind.slice() : null;
    const result = await api("/api/geometry", { variant: entry.variant, size: entry.size });
    setGeometry(result.geometry, result.variant);
    if (keep) {
      state.values = keep;
      state.kind = kinds;
    }
    state.file = null;
    changed();
    setStatus(`${entry.label}`, "");
  });
}

async function generate() {
  await busy("Generating", async () => {
    const body = { variant: state.variant, size: state.geometry.size, difficulty: $("difficulty").value };
    const result = await api("/api/generate", body);
    state.file = null;
    setGeometry(result.geometry, result.variant);
    syncVariantMenu();
    loadValues(result.values, "given");
    const rated = result.rating ? `, ${result.rating.text}` : "";
    setStatus(`Generated: ${result.givens} givens${rated}`, "generated");
  });
}

async function rate() {
  await busy("Rating", async () => {
    const result = await api("/api/rate", request());
    setStatus(`Rating: ${names(result.summary)}`, "rated");
  });
}

async function saveSvg() {
  await busy("Drawing", async () => {
    const step = state.steps ? state.steps[state.stepIndex] : null;
    const body = { puzzle: puzzleLine(step ? step.values : state.values), variant: state.variant };
    const masks = step ? step.masks : state.showCands ? state.masks : null;
    if (masks) body.candidates = masks;
    if (step) {
      const keys = ["cells", "units", "candidates", "eliminations", "placements", "links"];
      body.highlight = Object.fromEntries(keys.map((k) => [k, step[k] || []]));
    }
    const response = await fetch("/api/svg", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new Error(data.error || `HTTP ${response.status}`);
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = "sudoku.svg";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
    setStatus("Picture saved as sudoku.svg", "saved");
  });
}

// ---- start ---------------------------------------------------------------------------------
async function start() {
  try {
    state.info = await api("/api/info");
  } catch (e) {
    setStatus(`Cannot reach the server: ${e.message}`, "error");
    return;
  }
  $("version").textContent = `v${state.info.version}`;
  const menu = $("variant");
  state.info.variants.forEach((m, i) => menu.add(new Option(m.label, String(i))));
  const f = state.info.features;
  $("logic-tools").hidden = !(f.hint || f.explain);
  $("hint").hidden = !f.hint;
  $("explain").hidden = !f.explain;
  $("generate-tools").hidden = !(f.generate || f.rate);
  $("generate").hidden = !f.generate;
  $("difficulty").hidden = !f.generate;
  document.querySelector("label[for=difficulty]").hidden = !f.generate;
  $("rate").hidden = !f.rate;
  $("save-svg").hidden = !f.svg;
  for (const d of state.info.difficulties || []) $("difficulty").add(new Option(d, d));

  $("board").addEventListener("keydown", onBoardKey);
  $("variant").addEventListener("change", changeVariant);
  $("load").addEventListener("click", () => loadText($("paste").value, ""));
  $("file").addEventListener("change", () => {
    const file = $("file").files[0];
    if (!file) return;
    if (file.size > state.info.limits.max_body - 1024) {
      setStatus(`${file.name} is too large (at most about ${state.info.limits.max_body >> 20} MB)`, "error");
      return;
    }
    const reader = new FileReader();
    reader.onload = () => loadText(String(reader.result), file.name);
    reader.onerror = () => setStatus(`cannot read ${file.name}`, "error");
    reader.readAsText(file);
    $("file").value = "";
  });
  $("clear").addEventListener("click", () => {
    state.file = null;
    showFileNav();
    loadValues(new Array(state.values.length).fill(0), "");
    setStatus("Board cleared: type a puzzle, paste one, or open a file", "");
  });
  $("solve").addEventListener("click", solve);
  $("count").addEventListener("click", count);
  $("candidates-toggle").addEventListener("click", toggleCandidates);
  $("unsolve").addEventListener("click", () => {
    clearSolved();
    setStatus("Solution cleared", "");
  });
  $("hint").addEventListener("click", hint);
  $("explain").addEventListener("click", explainAll);
  $("prev-step").addEventListener("click", () => moveStep(-1));
  $("next-step").addEventListener("click", () => moveStep(1));
  $("close-steps").addEventListener("click", () => {
    closeSteps();
    setStatus("", "");
  });
  $("apply-hint").addEventListener("click", applyHint);
  $("generate").addEventListener("click", generate);
  $("rate").addEventListener("click", rate);
  $("save-svg").addEventListener("click", saveSvg);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("pencil").addEventListener("click", togglePencil);
  $("fill-cands").addEventListener("click", fillCandidates);
  $("notation").addEventListener("click", () => setNotation(state.notation === "rc" ? "A1" : "rc"));
  $("prev-puzzle").addEventListener("click", () => goToPuzzle(state.file.index - 1));
  $("next-puzzle").addEventListener("click", () => goToPuzzle(state.file.index + 1));
  $("puzzle-number").addEventListener("change", () => goToPuzzle(Number($("puzzle-number").value) - 1));
  document.addEventListener("keydown", onPageKey);
  window.addEventListener("hashchange", () => {
    state.file = null;
    showFileNav();
    loadFromAddress();
  });

  let notation = "A1";
  try {
    notation = localStorage.getItem("sudokit-notation") || "A1";
  } catch (e) {
    /* storage may be off */
  }
  setNotation(notation);
  const result = await api("/api/geometry", { variant: "standard", size: 9 });
  setGeometry(result.geometry, result.variant);
  render();
  setStatus("Type a puzzle into the grid, paste one, or open a file", "ready");
  await loadFromAddress();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
