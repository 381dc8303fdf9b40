// Variant puzzles on the workbench: a pasted f-puzzles / SudokuPad link is read by the server, drawn with its
// constraints (the server's SVG, as `sudokit render` draws it), solved and counted. Uses api(), busy() and
// setStatus() of app.js (loaded first).
"use strict";

const variantState = { text: "", loaded: null };

function variantEl(id) {
  return document.getElementById(id);
}

function showVariant(on) {
  // while a variant is shown the classic board's tools are put away: they would act on the hidden board
  document.body.classList.toggle("variant-mode", on);
  variantEl("variant-view").hidden = !on;
  for (const id of ["board-frame", "edit-bar", "file-nav"]) {
    const el = variantEl(id);
    if (el && on) el.hidden = true;
  }
  if (!on) {
    variantEl("board-frame").hidden = false;
    variantEl("edit-bar").hidden = false;
  }
  for (const id of ["variant-solve", "variant-count", "variant-save", "variant-close"]) variantEl(id).disabled = !on;
}

function drawVariant(svgText) {
  // the SVG is the server's own drawing (escaped text, no scripts); parse it as SVG, not as HTML
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const board = variantEl("variant-board");
  board.replaceChildren(document.importNode(doc.documentElement, true));
}

async function loadVariant() {
  const text = variantEl("variant-link").value.trim();
  if (!text) {
    setStatus("Paste an f-puzzles or SudokuPad link first.", "error");
    return;
  }
  await busy("Reading the link", async () => {
    const data = await api("/api/variant/load", { text });
    variantState.text = text;
    variantState.loaded = data;
    const by = data.author ? ` by ${data.author}` : "";
    variantEl("variant-title").textContent = (data.title || `${data.size}x${data.size} variant`) + by;
    drawVariant(data.svg);
    const list = variantEl("variant-rules");
    list.replaceChildren(...data.rules.map((rule) => Object.assign(document.createElement("li"), { textContent: rule })));
    showVariant(true);
    setStatus(`Loaded: ${data.rules.length - 1} constraints. Solve or count it.`, "loaded");
  });
  showVariant(variantState.loaded !== null);
}

async function solveVariant() {
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
});
