// sudokit workbench: the page over the JSON API. Plain JavaScript, no build step.
//
// The page keeps one puzzle: `values` (0 = empty) and, per cell, where its digit came from
// (`kind`: given / entry / solved / hint). Candidates, when shown, are bitmasks (bit d-1 = digit d)
// as the library keeps them. Conflicts are found here at every change, from the geometry's units.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  info: null,
  variant: "standard",
  geometry: null,
  values: [],
  kind: [],
  masks: null, // candidate bitmasks from the server (and hints applied to them), or null
  showCands: false,
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
  const buttons = document.querySelectorAll("#controls button, #steps button");
  buttons.forEach((b) => (b.disabled = true));
  setStatus(label + "…", "busy");
  try {
    await work();
  } catch (e) {
    setStatus(e.message, "error");
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    state.busy = false;
    updateStepButtons();
  }
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
  state.selected = Math.min(state.selected, n - 1);
  buildBoard();
}

function loadValues(values, kind) {
  state.values = values.slice();
  state.kind = values.map((v) => (v ? kind : ""));
  changed();
}

function changed() {
  // any change of digits makes old candidates and steps stale
  state.masks = null;
  closeSteps();
  if (state.showCands) refreshCandidates().catch((e) => setStatus(e.message, "error"));
  render();
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
    cell.setAttribute("aria-label", g.labels[s]);
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
      cell.setAttribute("aria-label", `${g.labels[s]} ${g.symbols[v - 1]}`);
    } else if (showCands && masks) {
      const box = document.createElement("div");
      box.className = "cands";
      box.style.setProperty("--cw", cw);
      box.style.gridTemplateColumns = `repeat(${cw}, 1fr)`;
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
      cell.setAttribute("aria-label", `${g.labels[s]} empty`);
    } else {
      cell.setAttribute("aria-label", `${g.labels[s]} empty`);
    }
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
  if (["Backspace", "Delete", "0", ".", " "].includes(e.key)) {
    e.preventDefault();
    setCell(s, 0);
    return;
  }
  if (e.key.length === 1) {
    const d = state.geometry.symbols.indexOf(e.key.toUpperCase()) + 1;
    if (d > 0) {
      e.preventDefault();
      setCell(s, d);
    }
  }
}

function setCell(s, d) {
  if (state.kind[s] === "given" && state.values[s] && d !== state.values[s]) {
    setStatus(`${state.geometry.labels[s]} is a given of the loaded puzzle (Clear to start over)`, "error");
    return;
  }
  state.values[s] = d;
  state.kind[s] = d ? (state.kind[s] === "given" ? "given" : "entry") : "";
  changed();
  const bad = conflicts(state.values);
  if (bad.size) {
    setStatus(`Conflict: ${[...bad].map((x) => state.geometry.labels[x]).join(", ")}`, "error");
  } else {
    setStatus(`${state.values.filter((v) => v).length} digits on the board`, "");
  }
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
      multiple: `Several solutions (at least ${result.count})`,
      no_solution: "No solution",
      invalid: `Invalid: ${result.message}`,
      timeout: "Gave up (time limit)",
    };
    if (result.solution) {
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
  let any = false;
  for (let s = 0; s < state.values.length; s++) {
    if (state.kind[s] === "solved") {
      state.values[s] = 0;
      state.kind[s] = "";
      any = true;
    }
  }
  if (any) changed();
}

async function count() {
  await busy("Counting", async () => {
    const result = await api("/api/count", request({ limit: 1000 }));
    const how = result.exact ? `${result.count}` : `at least ${result.count}`;
    const word = result.count === 1 && result.exact ? "solution" : "solutions";
    setStatus(`${how} ${word}`, result.exact ? "counted" : "counted-limit");
  });
}

async function refreshCandidates() {
  const result = await api("/api/candidates", request());
  state.masks = result.candidates.map((ds) => ds.reduce((m, d) => m | (1 << (d - 1)), 0));
  for (let s = 0; s < state.values.length; s++) if (state.values[s]) state.masks[s] = 0;
  render();
}

async function toggleCandidates() {
  state.showCands = !state.showCands;
  $("candidates-toggle").setAttribute("aria-pressed", String(state.showCands));
  if (state.showCands && !state.masks) {
    await busy("Finding candidates", async () => {
      await refreshCandidates();
      setStatus("Candidates shown", "");
    });
  }
  render();
}

async function hint() {
  await busy("Looking for a step", async () => {
    const body = request();
    if (state.masks) body.candidates = state.masks;
    const result = await api("/api/hint", body);
    if (!result.step) {
      setStatus(result.message, "stuck");
      return;
    }
    openSteps([result.step], "hint");
    setStatus("Next step found: read it below, then apply it or close it", "hint");
  });
}

function applyHint() {
  const step = state.steps && state.steps[state.stepIndex];
  if (!step) return;
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
  setStatus(`Applied: ${step.explanation}`, "applied");
  render();
}

async function explainAll() {
  await busy("Explaining", async () => {
    const result = await api("/api/explain", request());
    if (!result.steps.length) {
      setStatus(result.message || "no step to explain", "stuck");
      return;
    }
    openSteps(result.steps, "explain");
    const rating = result.rating !== null && result.rating !== undefined ? ` (rating ${result.rating})` : "";
    setStatus(result.message + rating, result.solved ? "explained" : "stuck");
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
  $("explanation").textContent = step.explanation;
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

async function loadText(text, name) {
  await busy("Reading", async () => {
    const result = await api("/api/parse", { text, name: name || "", variant: state.variant });
    setGeometry(result.geometry, result.variant);
    syncVariantMenu();
    loadValues(result.values, "given");
    const more = result.found > 1 ? ` (puzzle 1 of ${result.found >= 1000 ? "1000+" : result.found})` : "";
    const clash = result.conflicts.length ? `; conflict: ${result.conflicts[0].message}` : "";
    setStatus(`Loaded ${result.givens} givens${more}${clash}`, result.conflicts.length ? "error" : "loaded");
  });
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
    changed();
    setStatus(`${entry.label}`, "");
  });
}

async function generate() {
  await busy("Generating", async () => {
    const body = { variant: state.variant, size: state.geometry.size, difficulty: $("difficulty").value };
    const result = await api("/api/generate", body);
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
    setStatus(`Rating: ${result.summary}`, "rated");
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

  const result = await api("/api/geometry", { variant: "standard", size: 9 });
  setGeometry(result.geometry, result.variant);
  render();
  setStatus("Type a puzzle into the grid, paste one, or open a file", "ready");
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
