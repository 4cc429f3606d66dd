"""What every game shares: the game interface (base), problems and errors, applying a list of steps (stepping),
the adapter for games whose requests carry a whole state, perft, the rule catalogue's type, the wire schemas'
building blocks and the board fast path, and the SVG helpers. The registry of games is beside it
(service/games/registry.py)."""
