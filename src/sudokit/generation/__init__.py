"""Helpers of :mod:`sudokit.generate` and :mod:`sudokit.symmetry`: the minlex kernel (``minlex``) and
Norvig's propagation, ``random_puzzle`` and level (``norvig``)."""
