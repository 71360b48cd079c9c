"""Fixed-size encodings for learning code: an action space, a legal mask, observation vectors.

Everything depends only on the rules, so a network built for one set of
rules sees the same sizes in every game.

>>> import cheatrules as cr
>>> from cheatrules.encoding import ActionSpace, ObservationEncoder
>>> rules = cr.english(4)
>>> space = ActionSpace(rules)
>>> state = cr.deal(rules, seed=1)
>>> seen = state.observe(0)
>>> index = space.encode(cr.Play("A♥ 2♣", "A"))
>>> space.describe(index)
'lay 1×A 1×2 as the required rank'
>>> space.decode(index, seen)
Play(A♥ 2♣ as A)
>>> mask = space.mask(seen)
>>> sum(mask) == len(state.legal_actions()), mask[index]
(True, True)
>>> vector = ObservationEncoder(rules).encode(seen)
>>> len(vector) == ObservationEncoder(rules).size
True

The vector is a list of floats; :meth:`ObservationEncoder.array` gives a
``numpy`` array when numpy is installed, and ``ActionSpace.mask_array`` a
``bool`` array. ``InformationStateEncoder`` (in
:mod:`cheatrules.information_state`, and importable from here too) adds the
seat's memory of the game to the vector.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cheatrules import _checks
from cheatrules._caches import IdentityCache
from cheatrules._encoding_checks import (
    Bounds,
    EncodingError,
    bounds_of,
    is_observation,
    is_rules,
    laid_out,
    section_of,
    size_of,
)
from cheatrules._multisets import Capped
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.decision import DiscardOffer, Turn
from cheatrules.errors import N_, Message
from cheatrules.observation import Observation
from cheatrules.policies.declarations import declared
from cheatrules.rules import Rules
from cheatrules.table import Phase

if TYPE_CHECKING:
    from cheatrules.information_state import InformationStateEncoder

__all__ = ["ActionSpace", "EncodingError", "InformationStateEncoder", "ObservationEncoder"]


if not TYPE_CHECKING:  # hidden from type checkers, which see the import above

    def __getattr__(name: str) -> object:
        """``InformationStateEncoder``, from the module it lives in (PEP 562).

        That module builds on this one (its vector starts with the
        :class:`ObservationEncoder` one), so it is imported when first asked for.
        """
        if name == "InformationStateEncoder":
            from cheatrules.information_state import InformationStateEncoder

            globals()[name] = InformationStateEncoder  # asked once: found directly later
            return InformationStateEncoder
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, ``InformationStateEncoder`` included before it is asked for."""
    return sorted({*globals(), *__all__})


# The decisions beside plays and discards that have an index only where the rules offer them.
_EXTRAS: tuple[tuple[str, Action], ...] = (
    ("challenge-earlier", Challenge(earlier=True)),
    ("pass", Pass()),
    ("refuse", Refuse()),
)

#: How many observations' legal bitsets an action space keeps (a bot asks about each a few times).
_VIEWS_KEPT = 64


def _count_text(counts: Sequence[int], kinds: Sequence[Rank]) -> str:
    return " ".join(f"{count}×{rank}" for count, rank in zip(counts, kinds, strict=True) if count)


class _Numbering:
    """Where each block of an action space starts, and the rules' facts the blocks depend on."""

    def __init__(self, rules: Rules) -> None:
        deck = rules.deck
        self.announced: tuple[Rank, ...] = deck.ranks
        jokers = (Rank.JOKER,) if deck.copies(Rank.JOKER) else ()
        #: The kinds a play's multiset counts: the deck's ranks, then the joker if any.
        self.kinds: tuple[Rank, ...] = deck.ranks + jokers
        # Rules refuse a claim above the deck's size; the deck bounds the tables here
        # all the same, so that no maximum, however made, sizes them.
        top = min(rules.claims.maximum, deck.size)
        self.plays = Capped([deck.copies(kind) for kind in self.kinds], top)
        self.position = {kind: place for place, kind in enumerate(self.kinds)}
        discards = rules.discards
        sets_aside = declared(discards, "sets_fours_aside")
        #: The ranks of which a complete four can exist, and how many fours of each.
        self.four_ranks = tuple(rank for rank in deck.ranks if deck.copies(rank) >= 4)
        self.fours_of = {rank: deck.copies(rank) // 4 for rank in self.four_ranks}
        # With a discard phase, a choice of fours is one decision; where fours go
        # only on a turn (which goes on after them), one four is.
        self.whole_choices = sets_aside and declared(discards, "asks_after_pickup")
        self.weights: dict[Rank, int] = {}
        choices = 1
        for rank in self.four_ranks:
            self.weights[rank] = choices
            choices *= self.fours_of[rank] + 1
        ranks = rules.ranks
        one_rank = declared(ranks, "names_one_rank")
        openings = [ranks.allowed(None, True, deck.ranks)]
        openings += [ranks.allowed(rank, True, deck.ranks) for rank in deck.ranks]
        chooses = not one_rank or any(len(allowed) > 1 for allowed in openings)
        offered = {
            "challenge-earlier": rules.window.extended,
            "pass": declared(rules.passing, "offers_pass"),
            "refuse": rules.passing.consent,
        }
        self.extras = tuple(action for name, action in _EXTRAS if offered[name])
        lengths = [("challenge", 1), ("accept", 1)]
        if sets_aside:
            lengths.append(
                ("discard", choices)
                if self.whole_choices
                else ("discard-four", len(self.four_ranks))
            )
        if one_rank:
            lengths.append(("play", self.plays.size))
        if chooses:
            lengths.append(("play-as", self.plays.size * len(deck.ranks)))
        lengths += [(action.text().replace(" ", "-"), 1) for action in self.extras]
        self.layout = laid_out(lengths)
        self.size = size_of(self.layout)
        self.block = {name: (first, length) for name, first, length in self.layout}
        self.fixed: dict[Action, int] = {Challenge(): 0, Accept(): 1}
        for action in self.extras:
            self.fixed[action] = self.block[action.text().replace(" ", "-")][0]


@attrs.frozen
class ActionSpace:
    """Every decision the rules allow, numbered ``0 .. size-1``, with what the rules fix left out.

    The blocks, in order (``layout`` gives each one's name, start and
    length; ``n`` is the number of multisets of ranks a play can lay, ``R``
    the number of ranks of the deck):

    =====================  ==============  =================================================
    block                  length          an index means
    =====================  ==============  =================================================
    ``challenge``          1               ``Challenge()``
    ``accept``             1               ``Accept()``
    ``discard``            ``∏(f+1)``      a choice of fours to set aside, declining
                                           included (rules with a discard phase: ``f``
                                           fours of each rank can exist)
    ``discard-four``       ranks           one four of that rank, set aside on a turn
                                           (rules that set fours aside only on a turn)
    ``play``               ``n``           lay this multiset of ranks as the required rank
                                           (rules that name one rank after a claim)
    ``play-as``            ``R × n``       lay this multiset announcing this rank (rules
                                           where a claim, or a round's first, may choose)
    ``challenge-earlier``  1               ``Challenge(earlier=True)``, where offered
    ``pass``               1               ``Pass()``, where offered
    ``refuse``             1               ``Refuse()``, where offered
    =====================  ==============  =================================================

    A multiset lays 1 card up to the largest claim (a hand smaller than the
    smallest claim lays all it holds), at most as many of each rank as the
    deck has; jokers count as a rank laid where the deck has them. They are
    numbered by size, then in the order ``itertools.combinations_with_replacement``
    visits them (as many of the first rank as can be, first). In
    ``play-as``, index ``start + r × n + m`` announces the ``r``-th rank of
    the deck. A ``discard`` index is a mixed-radix number, one digit per
    rank (the count of its fours), the lowest rank the lowest digit; ``0``
    declines.

    Under rules that set fours aside only on a turn (``discards="any-time"``),
    the turn goes on after a discard, so the space numbers one four at a
    time: setting two fours aside is two decisions. A ``Discard`` of several
    fours on a turn is legal but has no index.

    The numbering is not stored in records, and may change between versions.

    Raises:
        RulesError: ``rules`` is not a :class:`~cheatrules.Rules` value.

    """

    #: The rules whose actions are numbered.
    rules: Rules = attrs.field(validator=is_rules)
    _numbering: _Numbering = attrs.field(init=False, eq=False, repr=False)
    # The legal bitsets of the newest observations asked about, by the observation's
    # identity (each kept with its observation; shared by threads, see _legal_bits).
    _views: IdentityCache[int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_numbering", _Numbering(self.rules))
        object.__setattr__(self, "_views", IdentityCache(_VIEWS_KEPT))

    def __reduce__(self) -> tuple[Any, ...]:
        # The rules alone: the numbering is rebuilt, the kept views are left behind.
        return (ActionSpace, (self.rules,))

    @property
    def size(self) -> int:
        """How many indices there are."""
        return self._numbering.size

    def __len__(self) -> int:
        """How many indices there are: ``len(space) == space.size``, as learning libraries ask."""
        return self._numbering.size

    @property
    def layout(self) -> tuple[tuple[str, int, int], ...]:
        """Each block as ``(name, start, length)``, in index order; only the blocks in use."""
        return self._numbering.layout

    # -- actions to indices and back -------------------------------------------------

    def encode(self, action: Action, observation: Observation | None = None) -> int:
        """The index of ``action`` (suits ignored: only ranks matter).

        A play's index depends on whether its rank is the required one or a
        choice; where the rules have both (``ranks="hold"``: a round's first
        claim chooses, the rest follow), pass the ``observation`` the play
        answers. An observation of a finished game answers no action.

        Raises:
            EncodingError: the action has no index under these rules, a
                play's block cannot be told without the observation, a play
                does not announce the rank the observation requires, or the
                observation's game is over.

        """
        numbering = self._numbering
        if observation is not None:
            observation = is_observation(observation)
            if observation.is_over:
                raise EncodingError(
                    N_("%(action)s has no index for seat %(seat)s now: the game is over"),
                    action=action,
                    seat=observation.seat,
                )
        if isinstance(action, Play):
            return self._encode_play(action, observation)
        if isinstance(action, Discard):
            return self._encode_discard(action)
        if isinstance(action, Action):
            found = numbering.fixed.get(action)
            if found is not None:
                return found
            raise EncodingError(
                N_("%(action)s has no index: these rules never offer it"), action=action
            )
        raise EncodingError(
            N_("expected an action such as cheatrules.Challenge(); got %(got)s"), got=repr(action)
        )

    def _encode_play(self, play: Play, observation: Observation | None) -> int:
        numbering = self._numbering
        number = self._play_number(play)
        if self._rank_required(play, observation):
            return numbering.block["play"][0] + number
        start = numbering.block["play-as"][0]
        return start + numbering.announced.index(play.rank) * numbering.plays.size + number

    def _play_number(self, play: Play) -> int:
        """The number of ``play``'s multiset of ranks among the plays of its block."""
        numbering = self._numbering
        counts = [0] * len(numbering.kinds)
        for card in play.cards:
            place = numbering.position.get(card.rank)
            if place is None:
                raise EncodingError(
                    N_("%(play)s has no index: the deck has no %(rank)s"), play=play, rank=card.rank
                )
            counts[place] += 1
        if play.rank not in numbering.announced:
            raise EncodingError(
                N_("%(play)s has no index: the deck has no %(rank)s to announce"),
                play=play,
                rank=play.rank,
            )
        number = numbering.plays.rank(counts)
        if number is None:
            raise EncodingError(
                N_(
                    "%(play)s has no index: a play lays 1 to %(top)s cards, "
                    "at most as many of a rank as the deck holds"
                ),
                play=play,
                top=numbering.plays.top,
            )
        return number

    def _rank_required(self, play: Play, observation: Observation | None) -> bool:
        """Whether ``play`` answers a required rank (its block ``play``), not a chosen one."""
        block = self._numbering.block
        if observation is None:
            if "play" in block and "play-as" in block:
                raise EncodingError(
                    N_(
                        "%(play)s is numbered one way when its rank is required and another when "
                        "it is chosen; pass the observation: space.encode(action, observation)"
                    ),
                    play=play,
                )
            return "play" in block
        allowed = observation.allowed_ranks
        required = len(allowed) == 1 and "play" in block
        if required and play.rank is not allowed[0]:
            raise EncodingError(
                N_("%(play)s has no index for seat %(seat)s now: the rank required is %(rank)s"),
                play=play,
                seat=observation.seat,
                rank=allowed[0],
            )
        if not required and "play-as" not in block:  # a view no game of these rules gives
            raise EncodingError(
                N_(
                    "seat may announce any of %(allowed)s, but the rank rule "
                    "declares that it names one rank (names_one_rank)"
                ),
                allowed=" ".join(map(str, allowed)),
            )
        return required

    def _encode_discard(self, discard: Discard) -> int:
        numbering = self._numbering
        counts = Counter(discard.ranks)
        if any(count > numbering.fours_of.get(rank, 0) for rank, count in counts.items()):
            raise EncodingError(
                N_("%(discard)s has no index: the deck holds no such fours"), discard=discard
            )
        if "discard" in numbering.block:
            start = numbering.block["discard"][0]
            return start + sum(numbering.weights[rank] * count for rank, count in counts.items())
        if "discard-four" in numbering.block and len(discard.ranks) == 1:
            return numbering.block["discard-four"][0] + numbering.four_ranks.index(discard.ranks[0])
        if "discard-four" in numbering.block:
            raise EncodingError(
                N_(
                    "%(discard)s has no index: under these rules the space numbers one four at a "
                    "time (the turn goes on after a discard); discard them one after another"
                ),
                discard=discard,
            )
        raise EncodingError(
            N_("%(discard)s has no index: these rules never set fours aside"), discard=discard
        )

    def decode(self, index: int, observation: Observation) -> Action:
        """The action at ``index`` for the observing seat, with the lowest cards of each rank.

        ``index`` may be any whole number, a NumPy integer included.

        Raises:
            EncodingError: ``index`` is not a whole number inside the space, or
                it is not a legal decision of the observing seat now (the
                message says what is asked instead, or that the game is over).

        """
        index = self._index(index)
        observation = is_observation(observation)
        if not self._legal_bits(observation) >> index & 1:
            why = self._illegal(index, observation)
            raise EncodingError(why)
        name, start = self._block_of(index)
        numbering = self._numbering
        offset = index - start
        if name in ("play", "play-as"):
            rank, number = observation.allowed_ranks[0], offset
            if name == "play-as":
                which, number = divmod(offset, numbering.plays.size)
                rank = numbering.announced[which]
            counts = numbering.plays.unrank(number)
            laid: list[Card] = []
            for kind, count in zip(numbering.kinds, counts, strict=True):
                if count:
                    laid += [card for card in observation.hand if card.rank is kind][:count]
            return Play(tuple(laid), rank)
        return self._action(name, offset)

    def _action(self, name: str, offset: int) -> Action:
        """The action of an index outside the play blocks (``offset`` into its block)."""
        numbering = self._numbering
        if name == "discard":
            ranks: list[Rank] = []
            for rank in numbering.four_ranks:
                offset, fours = divmod(offset, numbering.fours_of[rank] + 1)
                ranks += [rank] * fours
            return Discard(tuple(ranks))
        if name == "discard-four":
            return Discard((numbering.four_ranks[offset],))
        return next(
            action for action, found in numbering.fixed.items() if found == numbering.block[name][0]
        )

    def describe(self, index: int) -> str:
        """What ``index`` means, whatever the hand: for action names in learning libraries.

        >>> import cheatrules as cr
        >>> space = ActionSpace(cr.english(4))
        >>> space.describe(0), space.describe(space.encode(cr.Play("7♣ 7♦ K♠", "A")))
        ('challenge', 'lay 2×7 1×K as the required rank')

        Raises:
            EncodingError: ``index`` is not a whole number inside the space.

        """
        index = self._index(index)
        name, start = self._block_of(index)
        numbering = self._numbering
        offset = index - start
        if name == "play":
            counts = numbering.plays.unrank(offset)
            return f"lay {_count_text(counts, numbering.kinds)} as the required rank"
        if name == "play-as":
            which, number = divmod(offset, numbering.plays.size)
            counts = numbering.plays.unrank(number)
            return f"lay {_count_text(counts, numbering.kinds)} as {numbering.announced[which]}"
        return self._action(name, offset).text()

    def _index(self, index: object) -> int:
        return _checks.whole_number(index, "index", 0, self.size - 1, EncodingError)

    def _block_of(self, index: int) -> tuple[str, int]:
        for name, start, length in self._numbering.layout:
            if index < start + length:
                return name, start
        raise AssertionError(index)  # pragma: no cover - _index keeps it inside

    def _illegal(self, index: int, observation: Observation) -> Message:
        """Why ``index`` is not a legal decision of the observing seat now."""
        seat, decision = observation.seat, observation.decision
        said = {"index": index, "described": self.describe(index), "seat": seat}
        name, start = self._block_of(index)
        if decision.to_move == seat and name in ("play", "play-as"):
            number = (index - start) % self._numbering.plays.size
            counts = self._numbering.plays.unrank(number)
            held = Counter(card.rank for card in observation.hand)
            for kind, count in zip(self._numbering.kinds, counts, strict=True):
                if count > held[kind]:
                    return Message.of(
                        N_(
                            "index %(index)s (%(described)s) is not legal for seat %(seat)s now: "
                            "seat %(seat)s holds %(held)s %(kind)s, the play lays %(count)s"
                        ),
                        {**said, "held": held[kind], "kind": kind, "count": count},
                    )
        return Message.of(
            N_("index %(index)s (%(described)s) is not legal for seat %(seat)s now; %(asked)s"),
            {**said, "asked": decision.asking(observation.table)},
        )

    # -- legal decisions ---------------------------------------------------------------

    def _legal_bits(self, observation: Observation) -> int:
        """Bit ``i`` set where index ``i`` is legal for the observing seat; kept per view.

        Kept in this space for the newest :data:`_VIEWS_KEPT` observations,
        by identity (a bot asks mask, then decode, of one observation), and
        shared by the threads that use the space: an ``int`` never changes,
        and two threads that miss at once both compute the same bits.
        """
        views = self._views
        bits = views.get(observation)
        if bits is None:
            bits = self._compute_bits(observation)
            views.put(observation, bits)
        return bits

    def _compute_bits(self, observation: Observation) -> int:
        decision = observation.decision
        if decision.to_move != observation.seat:
            return 0
        numbering = self._numbering
        bits = 0
        for action in decision.choices:
            found = numbering.fixed.get(action)
            if found is None:
                raise EncodingError(
                    N_("%(action)s is legal now but has no index under these rules"), action=action
                )
            bits |= 1 << found
        if isinstance(decision, DiscardOffer):
            return bits | self._discard_bits(decision.fours, decline=True)
        if isinstance(decision, Turn):
            hand = observation.hand
            fours = self.rules.discards.on_turn(hand)
            if fours:
                bits |= self._discard_bits(fours, decline=False)
            bits |= self._play_bits(hand, observation.allowed_ranks)
        return bits

    def _discard_bits(self, fours: tuple[Rank, ...], *, decline: bool) -> int:
        numbering = self._numbering
        offered = Counter(fours)
        if "discard-four" in numbering.block:
            start = numbering.block["discard-four"][0]
            return sum(1 << (start + numbering.four_ranks.index(rank)) for rank in offered)
        if "discard" not in numbering.block:
            raise EncodingError(
                N_("fours are offered but these rules declare that none are set aside")
            )
        indices = [numbering.block["discard"][0]]
        for rank, most in offered.items():
            weight = numbering.weights[rank]
            indices = [index + weight * fours for index in indices for fours in range(most + 1)]
        return sum(1 << index for index in indices[0 if decline else 1 :])

    def _play_bits(self, hand: tuple[Card, ...], allowed: tuple[Rank, ...]) -> int:
        if not hand or not allowed:
            return 0
        numbering = self._numbering
        plays = numbering.plays
        held = [0] * len(numbering.kinds)
        position = numbering.position
        for card in hand:
            held[position[card.rank]] += 1
        sizes = self.rules.claims.sizes(len(hand))
        low, high = plays.first(sizes.start), plays.first(sizes.stop)
        within = plays.within(held) & ((1 << high) - (1 << low))
        block = numbering.block
        if len(allowed) == 1 and "play" in block:
            return within << block["play"][0]
        if "play-as" not in block:
            raise EncodingError(
                N_(
                    "seat may announce any of %(allowed)s, but the rank rule "
                    "declares that it names one rank (names_one_rank)"
                ),
                allowed=" ".join(map(str, allowed)),
            )
        start = block["play-as"][0]
        bits = 0
        for rank in allowed:
            bits |= within << (start + numbering.announced.index(rank) * plays.size)
        return bits

    def mask(self, observation: Observation) -> list[bool]:
        """For each index, whether it is a legal decision for the observing seat now.

        Worked out from the hand's count of each rank, never listing the
        plays; kept for the observation, so asking again costs nothing. All
        ``False`` when another seat is to move, and once the game is over.

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.

        """
        digits = format(self._legal_bits(is_observation(observation)), "b")
        return [digit == "1" for digit in reversed(digits.zfill(self.size))]

    def mask_array(self, observation: Observation) -> Any:
        """:meth:`mask` as a ``numpy`` array of ``bool`` (numpy must be installed).

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.
            ImportError: numpy is not installed.

        """
        import numpy  # an optional dependency: only the array methods need it

        bits = self._legal_bits(is_observation(observation))
        raw = numpy.frombuffer(bits.to_bytes((self.size + 7) // 8, "little"), dtype=numpy.uint8)
        return numpy.unpackbits(raw, count=self.size, bitorder="little").view(numpy.bool_)

    def legal_indices(self, observation: Observation) -> list[int]:
        """The indices of the seat's legal decisions, in ascending order.

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.

        """
        digits = format(self._legal_bits(is_observation(observation)), "b")[::-1]
        found = []
        index = digits.find("1")
        while index >= 0:
            found.append(index)
            index = digits.find("1", index + 1)
        return found


_PHASES = (Phase.PLAY, Phase.CHALLENGE, Phase.DISCARD, Phase.CONSENT, Phase.OVER)


@attrs.frozen
class ObservationEncoder:
    """An observation as a flat list of numbers, with a fixed, documented layout.

    The sections, in order (``P`` seats, ``R`` ranks of the deck, ``C``
    distinct cards of the deck):

    ==================  ======  ==============================================  ===========
    name                length  content                                         values
    ==================  ======  ==============================================  ===========
    ``seat``            P       one-hot: the observing seat                     0 or 1
    ``to_move``         P       one-hot: the seat to decide (zeros once over)   0 or 1
    ``phase``           5       one-hot: play, challenge, discard, consent,     0 or 1
                                over
    ``hand``            C       copies of each card in the seat's hand          0 to the
                                                                                copies
    ``hand_sizes``      P       each seat's number of cards                     0 to G
    ``active``          P       1 for each seat still in the game               0 or 1
    ``pile_size``       1       cards on the table                              0 to G
    ``groups``          1       groups on the table                             0 to G
    ``claim_seat``      P       one-hot: who made the last claim                0 or 1
    ``claim_count``     1       how many cards the last claim holds             0 to the
                                                                                largest
                                                                                claim
    ``claim_rank``      R       one-hot: the rank the last claim announced      0 or 1
    ``allowed_ranks``   R       1 for each rank the next play may announce      0 or 1
    ``discarded``       R       cards of each rank set aside in fours           0 to the
                                                                                rank's
                                                                                copies
    ``offered``         R       fours of each rank the seat may discard now     0 to its
                                                                                copies / 4
    ``set_aside``       1       cards set aside unseen at the deal              0 to G
    ``stock``           1       cards left in the stock                         0 to G
    ==================  ======  ==============================================  ===========

    ``C`` counts jokers when the deck has them; ``G`` is the deck's size,
    "the copies" how many copies of a card the deck holds and "the largest
    claim" the most cards a claim may lay. :meth:`bounds` gives each entry's
    bounds.
    """

    #: The rules whose observations are encoded.
    rules: Rules = attrs.field(validator=is_rules)
    # Each distinct card's place in the ``hand`` section.
    _cards: dict[Card, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        cards = sorted(set(self.rules.deck.cards()))
        object.__setattr__(self, "_cards", {card: place for place, card in enumerate(cards)})

    def __reduce__(self) -> tuple[Any, ...]:
        return (ObservationEncoder, (self.rules,))

    @property
    def layout(self) -> tuple[tuple[str, int, int], ...]:
        """Each section as ``(name, start, length)``."""
        players = self.rules.players
        ranks = len(self.rules.deck.ranks)
        cards = len(set(self.rules.deck.cards()))
        lengths = [
            ("seat", players), ("to_move", players), ("phase", 5), ("hand", cards),
            ("hand_sizes", players), ("active", players), ("pile_size", 1), ("groups", 1),
            ("claim_seat", players), ("claim_count", 1), ("claim_rank", ranks),
            ("allowed_ranks", ranks), ("discarded", ranks), ("offered", ranks), ("set_aside", 1),
            ("stock", 1),
        ]  # fmt: skip
        return laid_out(lengths)

    @property
    def size(self) -> int:
        """The length of every vector."""
        return size_of(self.layout)

    def section(self, vector: Sequence[float], name: str) -> list[float]:
        """The part of ``vector`` named ``name`` in :attr:`layout`.

        Raises:
            EncodingError: there is no section of that name.

        """
        return section_of(self.layout, vector, name)

    def bounds(self) -> Bounds:
        """Each entry's lowest and highest value, as the sections' ``values`` say.

        Returns:
            ``(low, high)``: two lists of :attr:`size` floats; ``low`` is all 0.

        >>> import cheatrules as cr
        >>> encoder = ObservationEncoder(cr.english(3))
        >>> low, high = encoder.bounds()
        >>> encoder.section(high, "hand_sizes"), encoder.section(high, "claim_count")
        ([52.0, 52.0, 52.0], [4.0])

        """
        return bounds_of(self.layout, self._highs())

    def _highs(self) -> dict[str, float | list[float]]:
        """Each section's highest value: one for the whole section, or one per entry."""
        deck = self.rules.deck
        size = float(deck.size)
        per_rank = [float(deck.copies(rank)) for rank in deck.ranks]
        return {
            **dict.fromkeys(
                ("seat", "to_move", "phase", "active", "claim_seat", "claim_rank", "allowed_ranks"),
                1.0,
            ),
            **dict.fromkeys(("hand_sizes", "pile_size", "groups", "set_aside", "stock"), size),
            "hand": [float(deck.card_copies(card)) for card in self._cards],
            "claim_count": float(min(self.rules.claims.maximum, deck.size)),
            "discarded": per_rank,
            "offered": [float(copies // 4) for copies in per_rank],
        }

    def encode(self, observation: Observation) -> list[float]:
        """The observation as a list of ``size`` floats.

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.

        """
        observation = is_observation(observation)
        players = self.rules.players
        ranks = self.rules.deck.ranks
        cards = self._cards

        def one_hot(length: int, position: int | None) -> list[float]:
            hot = [0.0] * length
            if position is not None:
                hot[position] = 1.0
            return hot

        def per_rank(counts: Counter[Rank]) -> list[float]:
            return [float(counts[rank]) for rank in ranks]

        held = [0.0] * len(cards)
        for card in observation.hand:
            held[cards[card]] += 1.0
        claim = observation.last_claim
        out = observation.finishing_order
        vector = one_hot(players, observation.seat)
        vector += one_hot(players, observation.to_move)
        vector += one_hot(len(_PHASES), _PHASES.index(observation.phase))
        vector += held
        vector += map(float, observation.hand_sizes)
        vector += [0.0 if seat in out else 1.0 for seat in range(players)]
        vector += [float(observation.pile_size), float(len(observation.claims))]
        vector += one_hot(players, claim.seat if claim else None)
        vector += [float(claim.count) if claim else 0.0]
        vector += one_hot(len(ranks), ranks.index(claim.rank) if claim else None)
        allowed = observation.allowed_ranks
        vector += [1.0 if rank in allowed else 0.0 for rank in ranks]
        vector += per_rank(Counter(card.rank for card in observation.discarded))
        vector += per_rank(Counter(observation.offered))
        vector += [float(observation.set_aside_count), float(observation.stock_size)]
        return vector

    def array(self, observation: Observation) -> Any:
        """The vector as a ``numpy`` array of float32 (numpy must be installed).

        Raises:
            ImportError: numpy is not installed.

        """
        import numpy  # an optional dependency: only this method needs it

        return numpy.asarray(self.encode(observation), dtype=numpy.float32)
