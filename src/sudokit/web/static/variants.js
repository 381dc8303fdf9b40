// Variant puzzles on the workbench: a pasted f-puzzles / SudokuPad link is read by the server, drawn with its
// constraints (the server's SVG, as `sudokit render` draws it), solved, counted, hinted, explained step by
// step and rated; a killer can be generated. Uses api(), busy(), setStatus(), sentence(), names(),
// setNotation() and closeSteps() of app.js (loaded first).
"use strict";

const variantState = {
  text: "", // the link (or JSON) the server reads on every call
  loaded: null, // what /api/variant/load answered
  steps: null, // a hint (one step) or the explanation's steps, each with the board before it
  index: 0,
  mode: "",
  pictures: new Map(), // step index -> its SVG, drawn once
  shown: -1, // the step whose picture is wanted now (a slower answer for another one is dropped)
};

const VARIANT_BUTTONS = [
  "variant-solve",
  "variant-count",
  "variant-save",
  "variant-close",
  "variant-hint",
  "variant-explain",
  "variant-rate",
];

function variantEl(id) {
  return document.getElementById(id);
}

function showVariant(on) {
  // while a variant is shown the classic board's tools are put away: they would act on the hidden board
  document.body.classList.toggle("variant-mode", on);
  variantEl("variant-view").hidden = !on;
  variantEl("variant-rules").hidden = !on; // below the status line, which stays in sight
  for (const id of ["board-frame", "edit-bar", "file-nav"]) {
    const el = variantEl(id);
    if (el && on) el.hidden = true;
  }
  if (!on) {
    variantEl("board-frame").hidden = false;
    variantEl("edit-bar").hidden = false;
  }
  for (const id of VARIANT_BUTTONS) variantEl(id).disabled = !on;
  updateVariantStepButtons();
}

function variantSize() {
  return variantState.loaded ? variantState.loaded.size : 9;
}

function variantNames(text) {
  // the server's sentence in the page's cell names (A1 or r1c1; boards other than 9x9 always r1c1)
  return names(text || "", variantSize());
}

function variantSentence(text) {
  text = variantNames(text);
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function drawVariant(svgText) {
  // the SVG is the server's own drawing (escaped text, no scripts); parse it as SVG, not as HTML
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const board = variantEl("variant-board");
  board.replaceChildren(document.importNode(doc.documentElement, true));
}

function showLoaded(data, text) {
  // a puzzle the server read (pasted, or generated): its title, picture and rules
  variantState.text = text;
  variantState.loaded = data;
  closeVariantSteps(false);
  variantEl("variant-rating").hidden = true;
  const by = data.author ? ` by ${data.author}` : "";
  variantEl("variant-title").textContent = (data.title || `${data.size}x${data.size} variant`) + by;
  drawVariant(data.svg);
  const list = variantEl("variant-rules");
  list.replaceChildren(...data.rules.map((rule) => Object.assign(document.createElement("li"), { textContent: rule })));
  const links = variantEl("variant-links");
  links.hidden = !data.link;
  if (data.link) {
    variantEl("variant-sudokupad").href = data.sudokupad_link;
    variantEl("variant-fpuzzles").href = data.link;
    variantEl("variant-link-out").value = data.sudokupad_link;
  }
  if (typeof closeSteps === "function") closeSteps(); // a classic explanation open below would be stale
}

async function loadVariant() {
  const text = variantEl("variant-link").value.trim();
  if (!text) {
    setStatus("Paste an f-puzzles or SudokuPad link first.", "error");
    return;
  }
  await busy("Reading the link", async () => {
    const data = await api("/api/variant/load", { text });
    showLoaded(data, text);
    showVariant(true);
    setStatus(`Loaded: ${data.rules.length - 1} constraints. Solve, count, hint, explain or rate it.`, "loaded");
  });
  showVariant(variantState.loaded !== null);
}

async function solveVariant() {
  closeVariantSteps(false);
  await busy("Solving", async () => {
    const data = await api("/api/variant/solve", { text: variantState.text });
    if (data.status === "solved") {
      drawVariant(data.svg);
      setStatus(`Solved: exactly one solution (${(data.seconds * 1000).toFixed(1)} ms), checked against every rule.`, "solved");
    } else if (data.status === "multiple") {
      setStatus("More than one solution: the puzzle is not unique.", "error");
    } else if (data.status === "timeout") {
      setStatus("No answer within the time limit (the variant solver is plain Python).", "error");
    } else {
      setStatus(`No solution (${data.status}).`, "error");
    }
  });
  showVariant(true);
}

async function countVariant() {
  await busy("Counting", async () => {
    const data = await api("/api/variant/count", { text: variantState.text, limit: 100 });
    const n = data.exact ? String(data.count) : `at least ${data.count}`;
    const note = data.status === "timeout" ? " (time limit reached)" : "";
    setStatus(`${n} solution${data.count === 1 ? "" : "s"}${note}.`, "counted");
  });
  showVariant(true);
}

// ---- logic: hint, explain, rate ------------------------------------------------------------------
function withNote(note, text) {
  return note ? `${variantSentence(note)}. ${text}` : text;
}

async function hintVariant() {
  await busy("Looking for a step", async () => {
    const data = await api("/api/variant/hint", { text: variantState.text });
    if (!data.step) {
      setStatus(withNote(data.note, variantSentence(data.message)), "stuck");
      return;
    }
    openVariantSteps([data.step], "hint");
    setStatus(withNote(data.note, "Next step found: its cells are marked on the board"), "hint");
  });
  showVariant(true);
}

async function explainVariant() {
  await busy("Explaining", async () => {
    const data = await api("/api/variant/explain", { text: variantState.text });
    if (!data.steps.length) {
      setStatus(withNote(data.note, variantSentence(data.message || "no step to explain")), "stuck");
      return;
    }
    openVariantSteps(data.steps, "explain");
    const rating = data.rating !== null && data.rating !== undefined ? ` (rating ${data.rating})` : "";
    setStatus(withNote(data.note, variantSentence(data.message) + rating), data.solved ? "explained" : "stuck");
  });
  showVariant(true);
}

async function rateVariant() {
  await busy("Rating", async () => {
    const data = await api("/api/variant/rate", { text: variantState.text });
    const out = variantEl("variant-rating");
    out.textContent = data.lines.join("\n");
    out.hidden = false;
    setStatus(`Rating: SE ${data.er.toFixed(1)}, ${data.level} (score ${data.score}), hardest step: ${data.hardest}`, "rated");
  });
  showVariant(true);
}

function openVariantSteps(steps, mode) {
  variantState.steps = steps;
  variantState.mode = mode;
  variantState.index = 0;
  variantState.pictures = new Map();
  variantEl("variant-steps").hidden = false;
  showVariantStep();
}

function closeVariantSteps(redraw) {
  if (!variantState.steps) return;
  variantState.steps = null;
  variantState.shown = -1;
  variantEl("variant-steps").hidden = true;
  if (redraw && variantState.loaded) drawVariant(variantState.loaded.svg);
}

function moveVariantStep(delta) {
  if (!variantState.steps) return;
  const last = variantState.steps.length - 1;
  const index = Math.max(0, Math.min(last, variantState.index + delta));
  if (index === variantState.index) return;
  variantState.index = index;
  showVariantStep();
}

function stepHighlight(step) {
  const out = {};
  for (const key of ["cells", "units", "candidates", "eliminations", "placements", "links"]) {
    if (step[key] && step[key].length) out[key] = step[key];
  }
  return out;
}

async function showVariantStep() {
  const index = variantState.index;
  const step = variantState.steps[index];
  variantEl("variant-step-count").textContent =
    variantState.mode === "hint"
      ? `Hint: ${step.technique}`
      : `Step ${index + 1} of ${variantState.steps.length}: ${step.technique}`;
  variantEl("variant-explanation").textContent = variantNames(step.explanation);
  updateVariantStepButtons();
  variantState.shown = index;
  let svg = variantState.pictures.get(index);
  if (!svg) {
    try {
      const body = { text: variantState.text, values: step.values, candidates: step.masks, highlight: stepHighlight(step) };
      svg = (await api("/api/variant/picture", body)).svg;
    } catch (e) {
      setStatus(`The step could not be drawn: ${e.message}`, "error");
      return;
    }
    if (!variantState.steps) return; // closed meanwhile
    variantState.pictures.set(index, svg);
  }
  if (variantState.shown !== index) return; // another step was asked for meanwhile
  drawVariant(svg);
  variantEl("variant-board").dataset.step = String(index + 1);
}

function updateVariantStepButtons() {
  const steps = variantState.steps;
  const many = Boolean(steps) && steps.length > 1;
  variantEl("variant-prev").hidden = !many;
  variantEl("variant-next").hidden = !many;
  if (steps) {
    variantEl("variant-prev").disabled = variantState.index === 0;
    variantEl("variant-next").disabled = variantState.index === steps.length - 1;
  }
  const button = variantEl("variant-notation");
  const fixed = variantSize() !== 9;
  const rc = state.notation === "rc" || fixed;
  button.setAttribute("aria-pressed", String(rc));
  button.textContent = `Cell names: ${rc ? "r1c1" : "A1"}`;
  button.disabled = fixed;
}

function toggleVariantNotation() {
  setNotation(state.notation === "rc" ? "A1" : "rc"); // the page's one choice, remembered by the browser
  if (variantState.steps) {
    variantEl("variant-explanation").textContent = variantNames(variantState.steps[variantState.index].explanation);
  }
  updateVariantStepButtons();
}

function onVariantKey(event) {
  if (!variantState.steps || variantEl("variant-view").hidden) return;
  const target = event.target;
  if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || target.tagName === "SELECT")) return;
  if (event.key === "PageDown" || event.key === "n") moveVariantStep(1);
  else if (event.key === "PageUp" || event.key === "p") moveVariantStep(-1);
  else if (event.key === "Escape") closeVariantSteps(true);
  else return;
  event.preventDefault();
}

// ---- generate ---------------------------------------------------------------------------------------
async function generateVariant() {
  const field = variantEl("variant-seed");
  const typed = field.value.trim();
  const seed = typed === "" ? Math.floor(Math.random() * 1e9) : Number(typed);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    setStatus("The seed must be a whole number, 0 or more (or empty for a random one).", "error");
    return;
  }
  await busy("Generating a killer", async () => {
    const data = await api("/api/variant/generate", { kind: "killer", seed });
    variantEl("variant-link").value = data.link;
    showLoaded(data, data.link);
    showVariant(true);
    setStatus(`Generated a killer (seed ${seed}): ${data.rules.length - 1} cages, one solution.`, "generated");
  });
  showVariant(variantState.loaded !== null);
  variantEl("variant-generate").disabled = false;
}

function saveVariant() {
  const svg = variantEl("variant-board").querySelector("svg");
  if (!svg) return;
  const text = new XMLSerializer().serializeToString(svg);
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: "variant.svg" });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  setStatus("Picture saved as variant.svg", "saved");
}

function closeVariant() {
  closeVariantSteps(false);
  variantState.loaded = null;
  showVariant(false);
  setStatus("Back to the board.", "");
}

document.addEventListener("DOMContentLoaded", () => {
  variantEl("variant-load").addEventListener("click", loadVariant);
  variantEl("variant-solve").addEventListener("click", solveVariant);
  variantEl("variant-count").addEventListener("click", countVariant);
  variantEl("variant-save").addEventListener("click", saveVariant);
  variantEl("variant-close").addEventListener("click", closeVariant);
  variantEl("variant-hint").addEventListener("click", hintVariant);
  variantEl("variant-explain").addEventListener("click", explainVariant);
  variantEl("variant-rate").addEventListener("click", rateVariant);
  variantEl("variant-generate").addEventListener("click", generateVariant);
  variantEl("variant-prev").addEventListener("click", () => moveVariantStep(-1));
  variantEl("variant-next").addEventListener("click", () => moveVariantStep(1));
  variantEl("variant-steps-close").addEventListener("click", () => {
    closeVariantSteps(true);
    setStatus("", "");
  });
  variantEl("variant-notation").addEventListener("click", toggleVariantNotation);
  document.addEventListener("keydown", onVariantKey);
});
