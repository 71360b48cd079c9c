"""The sampler's private parts: the plan of a view, its search, and the tests they share.

:mod:`cheatrules.sampling` is the public face; this package holds what it
is built from, each module one idea (see the design page *How the sampler
works*): ``plan`` (what a view's log alone fixes), ``search`` (the replay
that chooses each unseen group's cards), ``twins`` (copies of a card told
apart), ``matching`` (cards to the slots that can take them) and
``fourless`` (hands that may hold no four). Importing the package loads none
of them.
"""
