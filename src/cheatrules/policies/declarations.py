"""What a policy declares about itself, so callers ask instead of inspecting it.

A policy family's methods answer questions about one moment of a game; a
*declaration* answers a question about the policy as a whole (whether it
ever offers a pass, whether it always names a single rank), for code that
must know before any game is played: the rules' own consistency checks and
the action-space encoding. Every built-in policy declares these as class
attributes. A policy written by a user may leave any of them out; it then
gets the default below, chosen so that an undeclared policy keeps working.

=====================  ==========  =======  ================================================
declaration            family      default  meaning
=====================  ==========  =======  ================================================
``names_one_rank``     ranks       True     after a claim, the next claim must be of one
                                            required rank (``allowed`` returns one rank)
``needs_single_rank``  passing     False    the pass works only when one rank is required,
                                            so the rank rule must declare ``names_one_rank``
``offers_pass``        passing     True     a pass may ever be allowed
``sets_fours_aside``   discards    True     complete fours may ever be discarded
``asks_after_pickup``  discards    True     the taker is asked about fours after a pickup
                                            (the rules have a discard phase)
``jokers_protect``     check       False    a challenged group holding a joker is true,
                                            whatever else it holds
=====================  ==========  =======  ================================================

>>> from cheatrules.policies import Ascending, FreeChoice, NoPassing
>>> declared(Ascending(), "names_one_rank"), declared(FreeChoice(), "names_one_rank")
(True, False)
>>> declared(NoPassing(), "offers_pass")
False
"""

from __future__ import annotations

__all__ = ["DEFAULTS", "FAMILY_OF", "declared"]

#: Each declaration's value for a policy that does not declare it.
DEFAULTS: dict[str, bool] = {
    "names_one_rank": True,
    "needs_single_rank": False,
    "offers_pass": True,
    "sets_fours_aside": True,
    "asks_after_pickup": True,
    "jokers_protect": False,
}

#: The family whose policies make each declaration (a field of :class:`~cheatrules.Rules`).
FAMILY_OF: dict[str, str] = {
    "names_one_rank": "ranks",
    "needs_single_rank": "passing",
    "offers_pass": "passing",
    "sets_fours_aside": "discards",
    "asks_after_pickup": "discards",
    "jokers_protect": "check",
}


def declared(policy: object, name: str) -> bool:
    """What ``policy`` declares as ``name``, or the declaration's default when it is silent.

    Args:
        policy: a policy of any family.
        name: one of the declarations in :data:`DEFAULTS`.

    Returns:
        The policy's own declaration, as a bool, or the default.

    Raises:
        ValueError: ``name`` is not a declaration.

    """
    if name not in DEFAULTS:
        known = ", ".join(sorted(DEFAULTS))
        raise ValueError(f"unknown policy declaration {name!r}; the declarations are {known}")
    return bool(getattr(policy, name, DEFAULTS[name]))
