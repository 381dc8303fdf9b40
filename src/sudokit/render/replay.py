"""Replays: a solve's assignments on the board, frame by frame, as a GIF or a self-contained HTML page.

Frames come from a method's :class:`~sudokit.methods.trace.Trace` (``METHODS[name](puzzle, trace=True)``):
one frame per change of the board, following the search (a backtrack restores the board saved by its
guess), up to the first complete board. Long solves are thinned to at most ``max_frames`` evenly
spaced frames, always keeping the first and the last. Givens stay black; digits the method placed are
blue; cells filled since the previous frame are marked yellow, cells a backtrack cleared red. A
caption says what happened.

The GIF is painted with pillow (:mod:`.raster`): the board's lines and givens are painted once, each
frame only adds its digits. The HTML page holds one inline SVG and the frames as data, with a small
script to play them: no network, no files beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.render.scene import PALETTE, Rect, Scene, Text, board_scene

DEFAULT_MAX_FRAMES = 300


@dataclass
class Frame:
    """One picture of a replay: the board, the cells that just changed, and what happened."""

    grid: Grid
    changed: tuple[int, ...]
    caption: str
    backtrack: bool = False


def _describe(trace, index: int) -> tuple[str, bool]:
    e = trace.events[index]
    g = trace.geometry
    where = f"depth {e.depth}"
    rule = f"{e.rule}, " if e.rule else ""
    if e.kind == "backtrack":
        return f"backtrack ({rule}{where})", True
    if e.cell is not None and e.digit is not None:
        return f"{g.label(e.cell)} = {g.symbols[e.digit - 1]} ({rule}{where})", False
    return f"{e.kind} ({rule}{where})", False


def replay_frames(trace, max_frames: int = DEFAULT_MAX_FRAMES) -> list[Frame]:
    """The frames of a trace: the puzzle, then the board after each change (thinned to ``max_frames``)."""
    from sudokit.methods.trace import board_states

    if max_frames < 2:
        raise SudokitError("a replay needs at least 2 frames")
    states = board_states(trace)
    for i, (_, grid) in enumerate(states):
        if grid.is_complete:  # a search counting solutions goes on past the first: the replay stops there
            states = states[: i + 1]
            break
    total = len(states)
    if total + 1 > max_frames:
        keep = max_frames - 1
        picks = sorted({round(i * (total - 1) / (keep - 1)) for i in range(keep)})
        states_kept = [(k, states[k]) for k in picks]
    else:
        states_kept = list(enumerate(states))
    method = trace.method
    frames = [Frame(trace.puzzle, (), f"{method}: the puzzle, {trace.puzzle.givens} givens")]
    previous = trace.puzzle
    for k, (index, grid) in states_kept:
        text, backtrack = _describe(trace, index)
        changed = tuple(s for s in grid.geometry.cells if grid.values[s] != previous.values[s])
        frames.append(Frame(grid, changed, f"{method} {k + 1}/{total}: {text}", backtrack))
        previous = grid
    if frames[-1].grid.is_complete:
        frames[-1].caption += " - solved"
    return frames


# ---- pictures of frames -----------------------------------------------------------------------
def _layout(puzzle: Grid, cell_size: float | None) -> Scene:
    """The still part of every frame: the puzzle's board, with a band below for the caption."""
    scene = board_scene(puzzle, cell_size=cell_size)
    scene.height += round(scene.cell_size * 0.7)
    return scene


def _frame_items(scene: Scene, puzzle: Grid, frame: Frame) -> list:
    """What a frame adds to the still board: change marks, placed digits, the caption."""
    g = puzzle.geometry
    cs = scene.cell_size
    ox, oy = scene.origin
    inset = max(1.5, cs / 24)
    items: list = []
    for s in frame.changed:
        x, y = ox + g.col(s) * cs, oy + g.row(s) * cs
        colour = PALETTE["cell"] if frame.grid.values[s] else PALETTE["elimination_bg"]  # filled / cleared
        items.append(Rect(x + inset, y + inset, cs - 2 * inset, cs - 2 * inset, colour))
    for s in g.cells:
        v = frame.grid.values[s]
        if v and not puzzle.values[s]:
            x, y = ox + (g.col(s) + 0.5) * cs, oy + (g.row(s) + 0.5) * cs
            items.append(Text(x, y, g.symbols[v - 1], cs * 0.6, PALETTE["solved"]))
    items.append(Text(scene.width / 2, scene.height - cs * 0.42, frame.caption, cs * 0.3, PALETTE["given"]))
    return items


def write_gif(
    frames: list[Frame],
    path: str | Path,
    frame_ms: int = 120,
    scale: float = 1.0,
    cell_size: float | None = None,
) -> Path:
    """Write the frames as an animated GIF (looping; the first and last frames are held longer)."""
    from PIL import Image, ImageDraw

    from sudokit.render.raster import SUPERSAMPLE, paint, shrink

    if not frames:
        raise SudokitError("nothing to replay")
    puzzle = frames[0].grid
    scene = _layout(puzzle, cell_size)
    k = scale * SUPERSAMPLE
    still = Image.new("RGB", (round(scene.width * k), round(scene.height * k)), "white")
    paint(ImageDraw.Draw(still), scene.items, k)

    def picture(frame: Frame):
        big = still.copy()
        paint(ImageDraw.Draw(big), _frame_items(scene, puzzle, frame), k)
        return shrink(big, scene, scale)

    # One palette for every frame (quantising each frame alone is slow and makes colours flicker):
    # taken from two sample frames, the last board with a filled cell marked and the puzzle with a
    # cleared cell marked, so every colour a frame uses is in it.
    last = frames[-1].grid
    s = next((s for s in last.geometry.cells if not puzzle.values[s]), 0)
    samples = [
        picture(Frame(last, (s,), frames[-1].caption)),
        picture(Frame(puzzle, (s,), frames[0].caption, backtrack=True)),
    ]
    sheet = Image.new("RGB", (samples[0].width, samples[0].height * len(samples)))
    for i, im in enumerate(samples):
        sheet.paste(im, (0, i * im.height))
    palette = sheet.quantize(colors=128, method=Image.Quantize.FASTOCTREE)
    images = [picture(frame).quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    durations = [frame_ms] * len(images)
    durations[0] = max(frame_ms, 800)
    durations[-1] = max(frame_ms, 2500)
    path = Path(path)
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, disposal=1)
    return path


_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 1.5em; color: #111827; }}
#controls {{ margin: 0.6em 0; display: flex; gap: 0.5em; align-items: center; }}
#controls input[type=range] {{ width: 22em; }}
#caption {{ font-size: 1.05em; min-height: 1.4em; }}
h2 {{ font-size: 1.1em; word-break: break-all; max-width: 40em; }}
button {{ font-size: 1em; min-width: 2.4em; }}
</style></head>
<body>
<h2>{title}</h2>
<div id="board">{svg}</div>
<div id="controls">
<button id="first" title="first frame">|&#x25C0;</button>
<button id="prev" title="previous (left arrow)">&#x25C0;</button>
<button id="play" title="play / pause (space)">&#x25B6;</button>
<button id="next" title="next (right arrow)">&#x25B6;&#x25B6;</button>
<button id="last" title="last frame">&#x25B6;|</button>
<input id="slider" type="range" min="0" value="0">
<label>speed <select id="speed"><option value="400">slow</option><option value="150" selected>normal</option>
<option value="40">fast</option></select></label>
</div>
<div id="caption"></div>
<script>
const DATA = {data};
const svgNS = "http://www.w3.org/2000/svg";
const slider = document.getElementById("slider");
const marks = document.getElementById("marks");
slider.max = DATA.frames.length - 1;
let at = 0, timer = null;
function show(i) {{
  at = Math.max(0, Math.min(DATA.frames.length - 1, i));
  const f = DATA.frames[at];
  for (let s = 0; s < DATA.puzzle.length; s++) {{
    if (DATA.puzzle[s] !== ".") continue;
    const ch = f.board[s];
    document.getElementById("cell-" + s).textContent = ch === "." ? "" : ch;
  }}
  marks.replaceChildren();
  for (const s of f.changed) {{
    const r = document.createElementNS(svgNS, "rect");
    const x = DATA.origin[0] + (s % DATA.size) * DATA.cell, y = DATA.origin[1] + Math.floor(s / DATA.size) * DATA.cell;
    r.setAttribute("x", x); r.setAttribute("y", y);
    r.setAttribute("width", DATA.cell); r.setAttribute("height", DATA.cell);
    r.setAttribute("fill", f.board[s] === "." ? DATA.colours.cleared : DATA.colours.changed);
    marks.appendChild(r);
  }}
  slider.value = at;
  document.getElementById("caption").textContent = f.caption;
}}
function stop() {{ clearInterval(timer); timer = null; document.getElementById("play").innerHTML = "&#x25B6;"; }}
function play() {{
  if (timer) {{ stop(); return; }}
  if (at >= DATA.frames.length - 1) show(0);
  document.getElementById("play").innerHTML = "||";
  timer = setInterval(() => {{ if (at >= DATA.frames.length - 1) stop(); else show(at + 1); }},
                      Number(document.getElementById("speed").value));
}}
document.getElementById("first").onclick = () => {{ stop(); show(0); }};
document.getElementById("last").onclick = () => {{ stop(); show(DATA.frames.length - 1); }};
document.getElementById("prev").onclick = () => {{ stop(); show(at - 1); }};
document.getElementById("next").onclick = () => {{ stop(); show(at + 1); }};
document.getElementById("play").onclick = play;
document.getElementById("speed").onchange = () => {{ if (timer) {{ stop(); play(); }} }};
slider.oninput = () => {{ stop(); show(Number(slider.value)); }};
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowRight") {{ stop(); show(at + 1); }}
  else if (e.key === "ArrowLeft") {{ stop(); show(at - 1); }}
  else if (e.key === " ") {{ e.preventDefault(); play(); }}
}});
show(0);
</script>
</body></html>
"""


def replay_html(frames: list[Frame], title: str = "sudokit replay", cell_size: float | None = None) -> str:
    """A self-contained HTML page that plays the frames (inline SVG and script, nothing fetched)."""
    from xml.sax.saxutils import escape

    from sudokit.render.svg import scene_svg

    if not frames:
        raise SudokitError("nothing to replay")
    puzzle = frames[0].grid
    g = puzzle.geometry
    scene = board_scene(puzzle, cell_size=cell_size)
    cs = scene.cell_size
    ox, oy = scene.origin
    for s in g.cells:  # a text slot for every empty cell, filled by the script
        if not puzzle.values[s]:
            x, y = ox + (g.col(s) + 0.5) * cs, oy + (g.row(s) + 0.5) * cs
            scene.items.append(Text(x, y, "", cs * 0.6, PALETTE["solved"], role=f"cell-{s}"))
    svg = scene_svg(scene)
    # the change marks go under the grid lines, above the shading
    at = svg.index("<line")
    svg = svg[:at] + '<g id="marks"></g>\n' + svg[at:]
    data = {
        "size": g.size,
        "cell": cs,
        "origin": [ox, oy],
        "puzzle": puzzle.to_line(),
        "colours": {"changed": PALETTE["cell"], "cleared": PALETTE["elimination_bg"]},
        "frames": [
            {"board": f.grid.to_line(), "changed": list(f.changed), "caption": f.caption, "backtrack": f.backtrack}
            for f in frames
        ],
    }
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return _HTML.format(title=escape(title), svg=svg, data=text)


def write_replay(trace, path: str | Path, max_frames: int = DEFAULT_MAX_FRAMES, **options) -> Path:
    """Write a trace's replay to ``path``: ``.gif`` (animation) or ``.html`` (interactive page)."""
    path = Path(path)
    frames = replay_frames(trace, max_frames)
    suffix = path.suffix.lower()
    if suffix == ".gif":
        return write_gif(frames, path, **options)
    if suffix in (".html", ".htm"):
        title = f"{trace.method} solving {trace.puzzle.to_line()}"
        path.write_text(replay_html(frames, title, options.get("cell_size")), encoding="utf-8")
        return path
    raise SudokitError(f"{path}: choose a .gif or .html file name")
