"""Pictures of boards and solves: SVG, PNG, terminal colour, plots and replays.

Modules import their heavy libraries (matplotlib, rich, pillow) inside functions, so importing
``sudokit.render`` stays cheap (``Grid._repr_svg_`` imports :mod:`.svg` on every notebook display).
"""
