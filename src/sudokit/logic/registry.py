"""The table of techniques: name -> (finder, SE rating, HoDoKu score and level).

The solver tries techniques in table order (easiest first, the order of their SE ratings) and starts
again from the top after every step, the way Sudoku Explainer rates. Adding a technique is adding a row.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from sudokit.errors import SudokitError
from sudokit.logic import (
    als,
    avoidable,
    band_sums,
    bug,
    cage_chains,
    cages,
    chains,
    colouring,
    dynamic_forcing,
    exclusion,
    fish,
    forcing,
    intersections,
    killer_sums,
    loops,
    multiple_forcing,
    nested,
    nishio,
    parity,
    rectangles,
    region_sums,
    se_chains,
    single_digit,
    singles,
    strong_links,
    subsets,
    sue_de_coq,
    sum_combinations,
    sum_equations,
    templates,
    triple_exclusion,
    unique_loops,
    uniqueness,
    unit_cages,
    variant_forcing,
    variant_rules,
    wings,
)
from sudokit.logic.state import State
from sudokit.logic.step import Step

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")


@dataclass(frozen=True)
class Technique:
    """One row of the table. ``needs_boxes``: the technique assumes rectangular boxes (skipped otherwise);
    ``uniqueness``: it assumes the puzzle has exactly one solution; ``variant``: it reads a variant puzzle's
    constraints (skipped on a classic grid)."""

    name: str
    find: Callable[[State], Step | None]
    se: float
    score: int
    level: str
    needs_boxes: bool = False
    uniqueness: bool = False
    variant: bool = False


def _rule(family: str) -> Technique:
    """The row of a family of variant constraints (:data:`variant_rules.FAMILIES`), at its own rating."""
    _, se, _ = variant_rules.FAMILIES[family]
    level = "Easy" if se < 1.7 else "Medium"
    return Technique(family, partial(variant_rules.rule_step, family=family), se, 4, level, variant=True)


#: HoDoKu's (score, level) of its Franken and Mutant fish of sizes 2, 3 and 4, plain and finned
COMPLEX_FISH = {
    (fish.FRANKEN, False): ((300, 350, 370), "Unfair"),
    (fish.FRANKEN, True): ((390, 410, 430), "Unfair"),
    (fish.MUTANT, False): ((450, 450, 450), "Extreme"),
    (fish.MUTANT, True): ((470, 470, 470), "Extreme"),
}


def _complex_rows() -> list[Technique]:
    rows = []
    for (family, finned), (scores, level) in COMPLEX_FISH.items():
        for k, score in zip((2, 3, 4), scores):
            name = f"{'Finned ' if finned else ''}{family} {fish.FISH_NAMES[k]}"
            find = partial(fish.complex_fish, k=k, family=family, finned=finned)
            rows.append(Technique(name, find, 7.5, score, level, needs_boxes=True))
    return rows


def _table() -> list[Technique]:
    T = Technique
    rows = [
        T("Full House", singles.full_house, 1.0, 4, "Easy"),
        # Variant rows (variant=True) sit at their SE ratings among the classic ones; see docs/logic.md.
        _rule("Odd/Even"),
        T("Hidden Single (box)", singles.hidden_single_box, 1.2, 14, "Easy"),
        _rule("Palindrome"),
        T("Hidden Single (line)", singles.hidden_single_line, 1.5, 14, "Easy"),
        _rule("Thermometer"),
        T("Direct Pointing", intersections.direct_pointing, 1.7, 50, "Medium"),
        T("Direct Claiming", intersections.direct_claiming, 1.9, 50, "Medium"),
        _rule("Kropki/XV Pair"),
        T("Cage Combination", cages.cage_combinations, cages.CAGE_COMBINATION, 4, "Easy", variant=True),
        T("Direct Hidden Pair", partial(subsets.direct_hidden_subset, k=2), 2.0, 70, "Medium"),
        _rule("Renban/Whispers Range"),
        _rule("Arrow Sum"),
        T("Naked Single", singles.naked_single, 2.3, 4, "Easy"),
        T("Direct Hidden Triple", partial(subsets.direct_hidden_subset, k=3), 2.5, 100, "Medium"),
        _rule("Little Killer Sum"),
        _rule("Line Sum"),
        T("Pointing", intersections.pointing, 2.6, 50, "Medium"),
        T("Cage/Region Interaction", cages.cage_interaction, cages.CAGE_INTERACTION, 50, "Medium", variant=True),
        T("Claiming", intersections.claiming, 2.8, 50, "Medium"),
        # one unit at 2.8, each further unit of the region +0.2 (the step carries its own rating)
        T("Innies and Outies", cages.innies_outies, cages.INNIES_OUTIES, 60, "Medium", variant=True),
        T("Virtual Cage", killer_sums.virtual_cage, killer_sums.VIRTUAL_CAGE, 70, "Medium", variant=True),
        T("Naked Pair", partial(subsets.naked_subset, k=2), 3.0, 60, "Medium"),
        _rule("Sandwich Sum"),
        T("X-Wing", partial(fish.basic_fish, k=2), 3.2, 140, "Hard"),
        T("Hidden Pair", partial(subsets.hidden_subset, k=2), 3.4, 70, "Medium"),
        T(
            "Cage Combinations in a Unit",
            cages.unit_combinations,
            cages.UNIT_COMBINATION,
            70,
            "Medium",
            variant=True,
        ),
        # the 45 rule with the combinations of the cages that stick out (one unit 3.6, +0.2 per further unit)
        T(region_sums.NAME, region_sums.region_sum, region_sums.REGION_SUM, 70, "Medium", variant=True),
        T("Naked Triple", partial(subsets.naked_subset, k=3), 3.6, 80, "Medium"),
        # an arrow's or a little killer's sum with a cage's, a unit's or another rule's (sum_combinations.py)
        T(sum_combinations.NAME, sum_combinations.sum_combination, sum_combinations.RATING, 70, "Medium", variant=True),
        # odd digits counted over the 45 rule's regions, and the units' and cages' parities added up mod 2 (parity.py)
        T(parity.NAME, parity.parity, parity.RATING, 70, "Medium", variant=True),
        T("Swordfish", partial(fish.basic_fish, k=3), 3.8, 150, "Hard"),
        T("Hidden Triple", partial(subsets.hidden_subset, k=3), 4.0, 100, "Medium"),
        # Two strong links on one digit, at Sukaku Explainer's ratings and place (all before the XY-Wing): 4.0 in
        # parallel lines, 4.1 with a row and a column or a box, 4.3 with a group (strong_links.rating). Empty
        # rectangles and finned X-Wings that no plain pair of links gives are grouped links to SE: 4.3, after
        # the plain ones.
        T("Skyscraper", single_digit.skyscraper, 4.0, 130, "Hard"),
        T("2-String Kite", single_digit.two_string_kite, 4.1, 150, "Hard"),
        T("Turbot Fish", single_digit.turbot_fish, 4.1, 120, "Hard"),
        T("Finned X-Wing", partial(fish.finned_fish, k=2), 4.3, 130, "Hard", needs_boxes=True),
        # HoDoKu's sashimi fish (a finned fish with a base line of one cover cell or none) right after the
        # finned one of their size, as HoDoKu tries them, and at the finned rating (SE has neither)
        T("Sashimi X-Wing", partial(fish.finned_fish, k=2, sashimi=True), 4.3, 150, "Hard", needs_boxes=True),
        T("Empty Rectangle", single_digit.empty_rectangle, 4.3, 120, "Hard", needs_boxes=True),
        # any other pair of strong links has a group (the plain ones were found above): SE's grouped 4.3
        T("2-Link X-Chain", partial(strong_links.strong_link_chain, k=2), 4.3, 130, "Hard", needs_boxes=True),
        T("XY-Wing", wings.xy_wing, 4.2, 160, "Hard"),
        T("XYZ-Wing", wings.xyz_wing, 4.4, 180, "Hard"),
        # little killers on neighbouring parallel diagonals added up, less the boxes and cages inside (band_sums.py)
        T(band_sums.NAME, band_sums.band_sum, band_sums.RATING, 70, "Medium", variant=True),
        # the sums of cages, units, little killers and arrows combined by elimination (sum_equations.py)
        T(sum_equations.NAME, sum_equations.sum_equation, sum_equations.RATING, 70, "Medium", variant=True),
        T("Unique Rectangle", uniqueness.unique_rectangle, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        # type 3 is rated 4.6 / 4.7 / 4.8 with a naked pair / triple / quad (the step carries its own rating)
        T(
            "Unique Rectangle Type 3",
            uniqueness.unique_rectangle_type3,
            4.6,
            100,
            "Hard",
            needs_boxes=True,
            uniqueness=True,
        ),
        # loops of 6, 8, 10 cells: 4.6, 4.7, 5.0 (type 3 more; the step carries its own rating)
        T("Unique Loop", unique_loops.unique_loop, 4.6, 100, "Hard", needs_boxes=True, uniqueness=True),
        T("Naked Quad", partial(subsets.naked_subset, k=4), 5.0, 120, "Hard"),
        T("Jellyfish", partial(fish.basic_fish, k=4), 5.2, 160, "Unfair"),
        T("Hidden Quad", partial(subsets.hidden_subset, k=4), 5.4, 150, "Hard"),
        # Bent sets, at Sukaku Explainer's ratings (WXYZ 5.5-5.6, VWXYZ 6.2-6.4: the step carries its own, see
        # wings.bent_rating). Not in HoDoKu's list (it finds them as ALS-XZ, scored 300 Unfair, which they get).
        # Chains of 3 to 6 strong links on one digit come at Sukaku Explainer's places in its order (each step
        # carries its own rating, strong_links.rating); HoDoKu finds them as X-Chains.
        T("3-Link X-Chain", partial(strong_links.strong_link_chain, k=3), 5.4, 260, "Unfair"),
        T("WXYZ-Wing", partial(wings.als_wing, k=4), 5.5, 300, "Unfair"),
        T("BUG+1", uniqueness.bug_plus_one, 5.6, 100, "Hard", needs_boxes=True, uniqueness=True),
        T("BUG Type 2", bug.bug_type2, 5.7, 100, "Hard", needs_boxes=True, uniqueness=True),
        T("BUG Type 4", bug.bug_type4, 5.7, 100, "Hard", needs_boxes=True, uniqueness=True),
        # 5.8 with a naked pair, 5.9 with a triple (the step carries its own rating)
        T("BUG Type 3", bug.bug_type3, 5.8, 100, "Hard", needs_boxes=True, uniqueness=True),
        T("4-Link X-Chain", partial(strong_links.strong_link_chain, k=4), 5.8, 260, "Unfair"),
        # a unit (then two units that share a cell) filled together with every cage meeting it, the cages'
        # cells outside it and their peers included (unit_cages.py): exact over that web, before the rules' AICs
        T(unit_cages.NAME, unit_cages.cages_around_unit, unit_cages.RATING, 300, "Unfair", variant=True),
        T(
            unit_cages.NAME_TWO,
            partial(unit_cages.cages_around_unit, k=2),
            unit_cages.RATING_TWO,
            300,
            "Unfair",
            variant=True,
        ),
        T("VWXYZ-Wing", partial(wings.als_wing, k=5), 6.2, 300, "Unfair"),
        T("Aligned Pair Exclusion", exclusion.aligned_pair_exclusion, 6.2, 300, "Unfair"),
        T("5-Link X-Chain", partial(strong_links.strong_link_chain, k=5), 6.2, 260, "Unfair"),
        T("6-Link X-Chain", partial(strong_links.strong_link_chain, k=6), 6.6, 260, "Unfair"),
        # an AIC whose links may also be a summed cage's (or a small virtual cage's) combinations, another rule's
        # narrowing, or a digit's places where two units meet (cage_chains.py): SE 7.0 + length, before SE's
        # forcing chains, which would find it as an assumption's consequence
        T(cage_chains.NAME, cage_chains.variant_aic, cage_chains.BASE, 300, "Unfair", variant=True),
        # Sudoku Explainer's static chains (bidirectional X-/Y-cycles and forcing X-/Y-chains 6.5-6.6, other
        # cycles and forcing chains 7.0, each + length): the easiest of them all (se_chains). The rows after it
        # (HoDoKu's chains, grouped and ALS ones) come when it finds none, or when it is excluded.
        T(se_chains.NAME, se_chains.static_forcing_chain, 6.5, 260, "Unfair"),
        # Sudoku Explainer's Nishio (7.5 + length), multiple (cell / region, 8.0 +) and dynamic (8.5 +) forcing
        # chains, in SE's order; each takes its shortest chains (nishio, multiple_forcing, dynamic_forcing)
        T(triple_exclusion.NAME, triple_exclusion.aligned_triple_exclusion, triple_exclusion.SE, 300, "Unfair"),
        # a variant grid's digit templates with the cages that must hold the digit: what a single-digit Nishio
        # chain finds, without assuming (templates.py); HoDoKu's last-resort Template Set/Delete
        T(templates.NAME, templates.pattern_overlay, templates.RATING, 500, "Extreme", variant=True),
        T(nishio.NAME, nishio.nishio_forcing_chain, nishio.BASE, 500, "Extreme"),
        # two digits' templates that cannot both fit: what a forcing chain over two digits finds (templates.py)
        T(
            templates.COMBINATION,
            templates.template_combination,
            templates.COMBINATION_RATING,
            500,
            "Extreme",
            variant=True,
        ),
        T(multiple_forcing.NAME, multiple_forcing.multiple_forcing_chain, multiple_forcing.BASE, 500, "Extreme"),
        T(dynamic_forcing.NAME, dynamic_forcing.dynamic_forcing_chain, dynamic_forcing.BASE, 700, "Extreme"),
        # HoDoKu's own rows that Sukaku Explainer has no technique for (simple colouring, W-Wing, finned
        # Swordfish/Jellyfish, Sue de Coq, X-/XY-chains, nice loops, AICs): what they find SE finds with its chains
        # (or needs a harder one for), so in the full table they come after SE's chains, in HoDoKu's order, and
        # take steps only in HoDoKu's set, whose order is unchanged (measured on every 10th puzzle of
        # sudoku_exchange_rated, 501: exact ER 374 -> 380, within +-0.2 445 -> 462, against trying them before
        # Nishio; SE 7.0-7.5 all exact).
        # HoDoKu's further uniqueness rows (100 each, Hard), which Sudoku Explainer has none of: unique rectangle
        # types 5 and 6 and the hidden rectangle (rectangles.py), rated like types 1, 2 and 4
        T(rectangles.TYPE5, rectangles.unique_rectangle_type5, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        T(rectangles.TYPE6, rectangles.unique_rectangle_type6, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        T(rectangles.HIDDEN, rectangles.hidden_rectangle, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        # HoDoKu's avoidable rectangles (100 each, Hard) after its hidden rectangle: the deadly pattern in cells
        # solved on the way (not given); they need the givens, so pencil marks never use them (avoidable.py)
        T(avoidable.TYPE1, avoidable.avoidable_rectangle_type1, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        T(avoidable.TYPE2, avoidable.avoidable_rectangle_type2, 4.5, 100, "Hard", needs_boxes=True, uniqueness=True),
        T("Simple Colouring", chains.simple_colouring, 6.5, 150, "Hard"),
        # HoDoKu's Multi Colors (200, Hard) right after its simple colours; 3D Medusa next, before the chains
        # that would take its steps. Like the rows around them they come after SE's chains, so the full table
        # never reaches them. HoDoKu has no Medusa (it finds Medusa's steps as nice loops / AICs, 280 Unfair,
        # the score given here), so it is not in HoDoKu's set: `--techniques hodoku,medusa` adds it (on the
        # "diabolical" tier of sudoku_exchange_tiers it would take 614 steps of HoDoKu's own rows).
        T(colouring.MULTI, colouring.multi_colouring, 6.6, 200, "Hard"),
        T(colouring.MEDUSA, colouring.medusa, 7.0, 280, "Unfair"),
        # Sudoku Explainer has no W-Wing or finned Swordfish/Jellyfish: it needs a chain for what they find,
        # so they are rated as chains (measured: Spearman 0.942 -> 0.954 on sudoku_exchange_rated, tiers
        # hard/diabolical agreement 84% -> 94%).
        T("W-Wing", wings.w_wing, 6.6, 150, "Hard"),
        T("Finned Swordfish", partial(fish.finned_fish, k=3), 6.6, 200, "Unfair", needs_boxes=True),
        T("Sashimi Swordfish", partial(fish.finned_fish, k=3, sashimi=True), 6.6, 240, "Unfair", needs_boxes=True),
        T("Finned Jellyfish", partial(fish.finned_fish, k=4), 6.6, 250, "Unfair", needs_boxes=True),
        T("Sashimi Jellyfish", partial(fish.finned_fish, k=4, sashimi=True), 6.6, 260, "Unfair", needs_boxes=True),
        # HoDoKu's Sue de Coq (score 250, Unfair; SE-style 5.0, Sudoku Explainer has none) where HoDoKu tries
        # it in its set: after the finned fish, before its chains (see docs/logic_techniques.md)
        T("Sue de Coq", sue_de_coq.sue_de_coq, 5.0, sue_de_coq.SCORE, "Unfair", needs_boxes=True),
        T("X-Chain", chains.x_chain, 6.6, 260, "Unfair"),
        T("XY-Chain", chains.xy_chain, 6.6, 260, "Unfair"),
        # Nice loops go with AICs (SE 7.0 + length, HoDoKu 280). A continuous loop comes first, as in HoDoKu,
        # and only when no AIC is shorter: it makes every elimination of the loop in one step. Every longer
        # discontinuous loop is an AIC (plus a single when it places), so after the AIC row only the
        # three-candidate placements are left to look for (see loops.discontinuous_nice_loop).
        T("Continuous Nice Loop", loops.continuous_nice_loop, loops.BASE, 280, "Unfair"),
        T("AIC", chains.aic, 7.0, 280, "Unfair"),
        T(
            "Discontinuous Nice Loop",
            partial(loops.discontinuous_nice_loop, after_aic=True),
            loops.BASE,
            280,
            "Unfair",
        ),
        # HoDoKu's grouped nice loops and AICs (its GROUPED_NICE_LOOP, 300, Unfair, right after its nice loops):
        # the same searches with group nodes, a digit's candidates where a box and a line meet (groups.py). The
        # X-chain with groups comes first, as the X-chain comes before the AIC (HoDoKu reports it as a grouped
        # AIC or nice loop, scored 300). No grouped discontinuous row: the loops that remove are grouped AICs, and
        # the placement a = b - c = a cannot use a group on rows, columns and boxes (docs/logic_techniques.md).
        # Sudoku Explainer has none of them: they come after its chains in the full table.
        T("Grouped X-Chain", chains.grouped_x_chain, 6.6, 300, "Unfair"),
        T("Grouped Continuous Nice Loop", loops.grouped_continuous_nice_loop, loops.BASE, 300, "Unfair"),
        T("Grouped AIC", chains.grouped_aic, 7.0, 300, "Unfair"),
        # HoDoKu's ALS steps (scores 300, 320 and 360, Unfair). Sudoku Explainer has none: it needs a forcing chain
        # for what they find, so they are rated 7.5 and 8.0 and come after SE's chains, which take what they find
        # in the full table (measured: on every 10th puzzle sudoku_exchange_rated rates 7.0-9.4, 198, exact ER
        # 85 -> 101 against trying them before Nishio); they take their steps in HoDoKu's set.
        T("ALS-XZ", als.als_xz, 7.5, 300, "Unfair"),
        T("ALS-XY-Wing", als.als_xy_wing, 8.0, 320, "Unfair"),
        # HoDoKu's ALS-Chain (its ALS-XY-Chain, 340, Unfair, between the ALS-XY-Wing and Death Blossom): 4 to 6 sets;
        # the step carries 8.0 plus the length penalty of two nodes per set (als.als_chain)
        T("ALS-Chain", als.als_chain, 8.0, 340, "Unfair"),
        T("Death Blossom", als.death_blossom, 8.0, 360, "Unfair"),
        # HoDoKu's Franken and Mutant fish (fish.complex_fish), in HoDoKu's order after its ALS steps and before its
        # forcing chains. Sudoku Explainer has none (it needs a forcing chain for what they find): rated 7.5 like
        # ALS-XZ. Their plain search is slow (up to ~1 s a state), so they are in no set unless named (OPT_IN),
        # but for the Franken X-Wing and Swordfish, finned or not, which HoDoKu's solver uses by default and
        # the hodoku set has; the others HoDoKu leaves off (HODOKU_OFF): `franken fish` / `mutant fish` add them.
        *_complex_rows(),
        # HoDoKu's Kraken fish (500 Extreme, off in its solver by default): a basic fish whose fins each remove the
        # digit from a cover cell through the singles they force; a forcing chain to SE (8.0); opt-in
        T(fish.KRAKEN, fish.kraken_fish, 8.0, 500, "Extreme"),
        T("Contradiction Forcing Chain", forcing.contradiction_chain, forcing.BASE["contradiction"], 500, "Extreme"),
        T("Cell Forcing Chain", forcing.cell_forcing_chain, forcing.BASE["cell"], 500, "Extreme"),
        T("Dynamic Forcing Chain", forcing.dynamic_contradiction_chain, forcing.BASE["dynamic"], 700, "Extreme"),
        # HoDoKu's forcing nets (700, Extreme): the dynamic chain's search under HoDoKu's name (a single or a locked
        # candidate may rest on several premises: a net), and the cell verity followed the same way. Only in the
        # `hodoku` preset (HODOKU_ONLY), where they stand in place of the dynamic chain, which it leaves out.
        T(forcing.NET_CONTRADICTION, forcing.net_contradiction, forcing.BASE["dynamic"], 700, "Extreme"),
        T(forcing.NET_VERITY, forcing.net_verity, forcing.BASE["dynamic"], 700, "Extreme"),
        # singles and every constraint's own narrowing after an assumption: where nothing above applies
        T(
            "Variant Forcing Chain",
            variant_forcing.variant_forcing_chain,
            variant_forcing.RATING,
            700,
            "Extreme",
            variant=True,
        ),
        T("Nested Forcing Chain", nested.nested_forcing_chain, nested.BASE, 700, "Extreme"),
        # HoDoKu's Template Set/Delete on a classic grid (10000, Extreme), at HoDoKu's place: after its forcing
        # chains and nets, so only a set without them reaches it (templates.py)
        T(templates.CLASSIC, templates.template_set_delete, templates.RATING, 10000, "Extreme"),
    ]
    return rows


TECHNIQUES: list[Technique] = _table()
BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}


def applicable(state: State, uniqueness: bool = True, techniques: TechniqueSet | None = None) -> list[Technique]:
    """The techniques of ``techniques`` (default: every row of ``all``) that make sense on the state's geometry (without
    the uniqueness ones if asked), in table order. A variant state (with constraints) has the variant rows and
    never the uniqueness ones (a deadly pattern's swap may break a constraint, so it proves nothing); a classic
    state has no variant rows."""
    rows = ALL.rows if techniques is None else techniques.rows
    variant = bool(state.constraints)
    uniqueness = uniqueness and not variant
    return [
        t
        for t in rows
        if (not t.needs_boxes or state.g.has_boxes) and (uniqueness or not t.uniqueness) and (variant or not t.variant)
    ]


# ---- technique sets ---------------------------------------------------------------------------
#: HoDoKu's names for searches the table already makes (its forcing nets are the dynamic forcing chain's search and
#: the cell verity followed the same way): rows of the `hodoku` preset only, kept out of the full table (``all``),
#: which would repeat the search there (the verity cost 15% more CPU on the hardest band, finding nothing).
HODOKU_ONLY = frozenset({forcing.NET_CONTRADICTION, forcing.NET_VERITY})
#: Rows Sudoku Explainer has no technique for (it needs a chain or an exclusion where they apply).
NOT_IN_SE = frozenset(
    {
        "Skyscraper",
        "2-String Kite",
        "Turbot Fish",
        "Empty Rectangle",
        "Finned X-Wing",
        "Finned Swordfish",
        "Finned Jellyfish",
        "Sashimi X-Wing",
        "Sashimi Swordfish",
        "Sashimi Jellyfish",
        colouring.MULTI,
        colouring.MEDUSA,
        rectangles.TYPE5,
        rectangles.TYPE6,
        rectangles.HIDDEN,
        forcing.NET_CONTRADICTION,
        forcing.NET_VERITY,
        avoidable.TYPE1,
        avoidable.TYPE2,
        "W-Wing",
        "WXYZ-Wing",
        "VWXYZ-Wing",
        "ALS-XZ",
        "Sue de Coq",
        "ALS-XY-Wing",
        "Death Blossom",
        "ALS-Chain",
        "Grouped X-Chain",
        "Grouped Continuous Nice Loop",
        "Grouped AIC",
        "2-Link X-Chain",
        "3-Link X-Chain",
        "4-Link X-Chain",
        "5-Link X-Chain",
        "6-Link X-Chain",
        templates.NAME,
        templates.COMBINATION,
        templates.CLASSIC,
    }
)
#: Rows HoDoKu has no step for: Sudoku Explainer's "direct" forms, the bent sets (HoDoKu's ALS-XZ), SE's aligned
#: pair exclusion, the BUG types beyond BUG+1 and SE's chains. In HoDoKu's set the HoDoKu chains (W-Wing, X- and
#: XY-chains, nice loops, AICs, forcing chains) take the steps SE's chains take first in the full table.
NOT_IN_HODOKU = frozenset(
    {
        "Direct Pointing",
        "Direct Claiming",
        "Direct Hidden Pair",
        "Direct Hidden Triple",
        "WXYZ-Wing",
        "VWXYZ-Wing",
        "Aligned Pair Exclusion",
        triple_exclusion.NAME,
        "BUG Type 2",
        "BUG Type 3",
        "BUG Type 4",
        # Sudoku Explainer's chains, as SE finds and rates them (HoDoKu has its own rows for what they find)
        se_chains.NAME,
        nishio.NAME,
        multiple_forcing.NAME,
        dynamic_forcing.NAME,
        # found in HoDoKu's set as its Forcing Net Contradiction (the same search)
        "Dynamic Forcing Chain",
        # colouring over every digit: HoDoKu has no 3D Medusa
        colouring.MEDUSA,
        # a variant grid's two-digit templates (HoDoKu overlays one digit at a time)
        templates.COMBINATION,
    }
)
#: Rows only a set that names them (or a preset listing them) uses, not ``all``: HoDoKu's Franken and Mutant
#: fish, whose plain search costs up to ~1 s a state where nothing easier applies (docs/logic_techniques.md)
OPT_IN = frozenset({fish.KRAKEN}) | frozenset(
    f"{fin}{family} {fish.FISH_NAMES[k]}"
    for fin in ("", "Finned ")
    for family in (fish.FRANKEN, fish.MUTANT)
    for k in (2, 3, 4)
)
#: HoDoKu's fish rows its solver leaves out by default (they are off in its step configuration): out of the
#: hodoku set, added by name or with the aliases `franken fish` / `mutant fish`.
HODOKU_OFF = frozenset(
    {"Franken Jellyfish", "Finned Franken Jellyfish", fish.KRAKEN}
    | {f"{fin}Mutant {fish.FISH_NAMES[k]}" for fin in ("", "Finned ") for k in (2, 3, 4)}
)
SINGLES = ("Full House", "Hidden Single (box)", "Hidden Single (line)", "Naked Single")
#: Named sets for ``--techniques`` / ``--exclude``; each is a test on a row.
PRESETS: dict[str, Callable[[Technique], bool]] = {
    "all": lambda t: t.name not in HODOKU_ONLY and t.name not in OPT_IN,
    "se": lambda t: t.name not in NOT_IN_SE and t.name not in OPT_IN,
    "hodoku": lambda t: t.name not in NOT_IN_HODOKU and t.name not in HODOKU_OFF,
    "singles": lambda t: t.name in SINGLES,
    "uniqueness": lambda t: t.uniqueness,
    "variant": lambda t: t.variant,
}
#: Other names for rows, as HoDoKu and the forums write them.
ALIASES: dict[str, tuple[str, ...]] = {
    "hidden single": ("Hidden Single (box)", "Hidden Single (line)"),
    "locked candidates": ("Pointing", "Claiming"),
    "locked candidates type 1": ("Pointing",),
    "locked candidates type 2": ("Claiming",),
    "naked quadruple": ("Naked Quad",),
    "hidden quadruple": ("Hidden Quad",),
    "bug": ("BUG+1", "BUG Type 2", "BUG Type 3", "BUG Type 4"),
    "multi colors": (colouring.MULTI,),
    "medusa": (colouring.MEDUSA,),
    "hidden unique rectangle": (rectangles.HIDDEN,),
    "avoidable rectangle": (avoidable.TYPE1, avoidable.TYPE2),
    "templates": (templates.NAME, templates.CLASSIC),
    "sashimi fish": ("Sashimi X-Wing", "Sashimi Swordfish", "Sashimi Jellyfish"),
    "franken fish": tuple(f"{fin}Franken {fish.FISH_NAMES[k]}" for fin in ("", "Finned ") for k in (2, 3, 4)),
    "mutant fish": tuple(f"{fin}Mutant {fish.FISH_NAMES[k]}" for fin in ("", "Finned ") for k in (2, 3, 4)),
    "nice loop": ("Continuous Nice Loop", "Discontinuous Nice Loop"),
    "grouped nice loop": ("Grouped Continuous Nice Loop", "Grouped AIC"),
    "als-xy-chain": ("ALS-Chain",),
    "forcing chain": (
        se_chains.NAME,
        nishio.NAME,
        multiple_forcing.NAME,
        dynamic_forcing.NAME,
        "Contradiction Forcing Chain",
        "Cell Forcing Chain",
        "Dynamic Forcing Chain",
        "Nested Forcing Chain",
        "Variant Forcing Chain",
        forcing.NET_CONTRADICTION,
        forcing.NET_VERITY,
    ),
    "forcing net": (forcing.NET_CONTRADICTION, forcing.NET_VERITY, "Nested Forcing Chain"),
}


@dataclass(frozen=True)
class TechniqueSet:
    """The rows a solver may use (in table order) and how they were asked for, e.g. ``"se"`` or
    ``"all; exclude uniqueness"``: with the sudokit version, enough to reproduce a rating."""

    spec: str
    rows: tuple[Technique, ...]

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.rows]


def _key(name: str) -> str:
    """A name as matched: case, spaces, hyphens and underscores do not count (``xwing`` is ``X-Wing``)."""
    return re.sub(r"[\s_\-]+", "", name.lower())


def _rows_named(name: str, option: str) -> tuple[str, set[str]]:
    """One item of a comma list: its name as written in a spec, and the rows it stands for (a preset, a row,
    or an alias)."""
    key = _key(name)
    if key in PRESETS:
        return key, {t.name for t in TECHNIQUES if PRESETS[key](t)}
    for t in TECHNIQUES:
        if _key(t.name) == key:
            return t.name, {t.name}
    for alias, rows in ALIASES.items():
        if _key(alias) == key:
            return alias, set(rows)
    known = [*PRESETS, *(t.name for t in TECHNIQUES), *ALIASES]
    close = difflib.get_close_matches(name.lower(), [k.lower() for k in known], n=1, cutoff=0.6)
    hint = ""
    if close:
        hint = f" (did you mean '{next(k for k in known if k.lower() == close[0])}'?)"
    raise SudokitError(f"{option}: unknown technique '{name}'{hint}; presets: {', '.join(PRESETS)}")


def _items(names: str | Iterable[str] | None) -> list[str]:
    if names is None:
        return []
    parts = names.split(",") if isinstance(names, str) else [p for n in names for p in n.split(",")]
    return [p.strip() for p in parts if p.strip()]


def technique_set(
    techniques: str | Iterable[str] | TechniqueSet | None = None, exclude: str | Iterable[str] | None = None
) -> TechniqueSet:
    """The rows named by ``techniques`` (a comma list of technique names and presets ``all``, ``se``,
    ``hodoku``, ``singles``, ``uniqueness``; default ``all``) without those named by ``exclude``, in table
    order. Names are matched without regard to case, spaces or hyphens; an unknown name raises
    :class:`~sudokit.errors.SudokitError` with the closest known name."""
    if isinstance(techniques, TechniqueSet):
        if exclude is not None:
            raise ValueError("exclude takes names, not a TechniqueSet")
        return techniques
    wanted = [_rows_named(n, "--techniques") for n in _items(techniques) or ["all"]]
    dropped = [_rows_named(n, "--exclude") for n in _items(exclude)]
    keep = set().union(*(rows for _, rows in wanted)) - set().union(*(rows for _, rows in dropped))
    if not keep:
        raise SudokitError("--techniques/--exclude: no technique left to use")
    spec = ",".join(name for name, _ in wanted)
    if dropped:
        spec += "; exclude " + ",".join(name for name, _ in dropped)
    return TechniqueSet(spec, tuple(t for t in TECHNIQUES if t.name in keep))


ALL = technique_set()
