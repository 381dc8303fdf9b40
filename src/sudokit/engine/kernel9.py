"""The 9x9 batch kernel: per-digit band bitboards, in the style of JCZSolve / fsss2.

Used automatically by the batch path (:mod:`sudokit.engine.batch`) and by ``count_array`` for the standard 9x9
geometry only; every other geometry, and ``solve`` (whose statistics :mod:`sudokit.engine.pure` reproduces),
use the general kernel of :mod:`sudokit.engine.kernel`.

Representation
--------------
For each digit d (0..8) and band b (rows 3b..3b+2) one 27-bit word ``F[4*d + b]`` holds the cells of that band
where d is still possible (placed cells keep their own digit's bit), and ``U[b]`` the band's open cells::

    F[4*d + b]   bit 26 ..... bit 18 | bit 17 ..... bit 9 | bit 8 ...... bit 0
                 row 3b+2, col 9..1  | row 3b+1, col 9..1 | row 3b, col 9..1

    bit index = 9 * (row % 3) + col, cell = 27 * band + bit index

    state word   0 1 2 3 | 4 5 6 7 | ... | 32 33 34 35 | 36 37 38 39 | 40   | 41..43
                 digit 0 | digit 1 | ... | digit 8     | U           | MARK | (padding)
                 b0 b1 b2 0                              b0 b1 b2 0

A digit's three band words and a fourth word that stays 0 are one four-lane vector (:mod:`sudokit.lanes`: one
AVX2 register, lane ``b`` = band ``b``), and so are the open cells, so every step loads and stores them whole
and treats the three bands with one instruction per operation. Placements and shapes write whole vectors too: a
vector load of words that one-word stores have just written cannot take them from the store buffer and waits
until they reach the cache, which cost 4-10% when the digits' words were three to a vector (``OPEN``, ``MARK``,
:data:`STATE_WORDS`; rows of 44 words keep each vector inside a cache line). A search level copies 40 words
instead of two 81-cell arrays.

Propagation, to a fixed point:

* band shapes -- inside a band each digit fills exactly one row-segment per row and per box, i.e. one of the
  six 3x3 permutation patterns. The word is shrunk to its 3x3 segment pattern (bit ``3 * (3 * row + box)``:
  an OR of the word shifted by 1 and 2), and a segment is kept when the two other rows can take the two other
  boxes (either pairing, read off the pattern with its rows and its boxes rotated); no segment kept is a
  contradiction, and cells outside the kept ones are cleared. Stacks alike, on the digit's column folds, the
  other two bands read by rotating the lanes. This subsumes pointing/claiming inside the band and the stack
  (JCZSolve's ``TblComplexMask``, there a table look-up);
* naked singles -- OR-accumulating the nine digits' vectors gives, for the three bands at once, the open cells
  with one candidate (and those with none, a contradiction); four more ORs in the same pass build the bit
  planes of the digit index, from which each such cell reads its digit;
* hidden singles -- per digit, a row, a box or a column with exactly one *open* place (``F & U``: a row, box
  or column where the digit is placed has none, so only the units still missing the digit are looked at).
  The three rows of each band are spread into 16-bit fields and :func:`sudokit.lanes.single16` keeps those
  with one bit (``x & (x - 1) == 0``); boxes off the row-segments (a box whose places lie in one segment,
  which holds one of them: :func:`_alone_in_box`); columns by counting once/twice over each band's three rows,
  then over the three bands with the lanes rotated. One vector pass finds all 27 units of the digit;
* triads (tdoku's) -- a mini-row (the three cells of a row in one box) holds exactly three digits. Where only
  three digits can go (naked), each must go there and leaves the rest of its row and box in the band; where
  three digits can go nowhere else in their row (hidden), no other digit can go there. Mini-columns alike. All
  54 mini-lines are counted at once (:func:`_triads`), one lane per band (its mini-rows and, in the high half,
  its mini-columns), and the digit counts are bit-sliced (four bit planes, one add per digit). Where one clears,
  one int64 per digit holds all its mini-rows and, in the high half, its mini-columns, laid out alike (a line's
  three mini-lines 3 bits apart, a box's 9 apart).

A digit's word in one band, its segment pattern (bit ``3 * row + box``: the digit can still go in that row of
that box) and the ways that fit it (one segment per row and per box: the six 3x3 permutation patterns)::

    word (band 0, digit 5)     pattern     ways that fit   kept word
    . . 5 | . . . | 5 . .      1 0 1       1 0 0           . . 5 | . . . | . . .
    . . . | 5 . 5 | . . .  ->  0 1 0  ->   0 1 0       ->  . . . | 5 . 5 | . . .
    . . . | . . . | 5 5 .      0 0 1       0 0 1           . . . | . . . | 5 5 .

Row 2 can only take box 2, row 1 only box 1, so row 0 must take box 0: one step does what pointing and
claiming would find in several.

A placement clears the digit from its row, box and column with three precomputed band masks, and the cell
from the other digits' words (skipped for a naked single: the cell has no other candidate; those are placed in
:func:`_propagate` itself, which updates the open cells and word ``MARK`` once after them). A placement whose
bit is already gone is a contradiction, so a state with no open cell is always a valid grid.

The steps run in stages: naked singles (all three bands in one vector pass); hidden singles only when no naked
single was found; shapes only when neither found anything; triads only when the shapes changed nothing.
Hidden singles and shapes look only at the digits with a word changed since they last ran (word ``MARK`` of the
state collects the changes in bits ``3 * d .. 3 * d + 2`` for digit ``d``: a placement or a guess sets bit ``3 * d``,
the shapes and the triads bit ``3 * d + b`` for the band ``b`` that shrank), at all three bands of such a
digit; the triads look at every mini-line (they clear only where a mini-line is naked but not hidden or the
reverse; a mini-line that is both has nothing left to clear). When the triads find nothing, word ``MARK`` keeps
their counts as the branching score.

Answer check: when the search reaches a state with no open cell it writes the grid from the digit words
and checks that grid against the rules and the givens (:func:`check9`: the givens compared branch-free, then
each row, column and box read off the 81 written values), so every answer leaves the kernel checked without a
second pass over the batch; a grid that failed would come back with status :data:`BROKEN`, which every caller
turns into an error.

Search: depth first with an explicit stack, branching as tdoku does on a digit's *way* across a band or a stack
(which mini-row of each box it takes: one of the six patterns above). The unit is the band or stack with the
fewest (digit, mini-line) pairs left among those not fixed (the triads' counts; tdoku counts the ways, this
count guessed less), and in it the first digit with two ways, else three, else the fewest; each way is one
alternative (:func:`_follow` keeps only its mini-rows). If every band and stack were fixed with a cell open
(propagation leaves none then: each digit's mini-row and mini-column in a box meet in one cell, a hidden
single), the open bivalue cell with the most open peers would be the branch, else the first cell with the
fewest candidates. A choice fixes one (band or stack, digit) pair for good, so a path has at most 54 choice
points. A guess works on a copy one level up; the last digit left at a choice point is tried in place, on the
level itself, which is not needed again. Counting to 2, the first solution ends the search at once when it
holds a deadly rectangle at a choice point still to be tried (:func:`_deadly`: for that point's unit and digit,
two rows of the band, or two columns of the stack, where the digit and another hold four cells crosswise, none
of them a given; swapping the two digits there gives a second solution). ``stats`` = ``[guesses, nodes,
backtracks]`` with the general kernel's meanings (a guess is a digit tried while others remain at that choice
point). They differ from the general kernel's because the propagation and the branching differ, and because a
second solution shown by a rectangle is not searched for; the statuses and solution counts are the same.

Compiled-code notes: numba increments and decrements an array's reference count (two atomic instructions)
each time it binds the array to a name -- at every inlined ``_place``, every call and every row view. The
kernels therefore work on *borrowed* arrays (:func:`_borrow`: the same data with a NULL meminfo, for which
those calls return at once) while the owners stay alive in the caller. ``lowest_bit``/``popcount`` (from
:mod:`sudokit.bits`) are the LLVM ``cttz``/``ctpop`` intrinsics (one instruction each).

Measured, first round (CPU time, first solution, one core, general kernel vs this one in the same run; ratios):

=============================================  ==========  =======  =======  =====================
change                                         kaggle      17_clue  top1465  kept?
=============================================  ==========  =======  =======  =====================
band shapes only, every step every pass        --          --       1.21x    guesses 17.7 vs 11.9
+ stack shapes (column/box locked candidates)  0.80x       1.11x    1.50x    kept (11.7 guesses)
skip digits whose words did not change         0.77x       1.04x    1.33x    no gain; superseded
shapes after singles (one pass, old order)     --          --       worse    rejected then
givens placed in bulk (AND of masks)           0.97x       1.01x    1.29x    kept
changed words per digit *and band*             0.98x       1.20x    1.49x    kept
hidden singles only when no naked single       1.18x       1.38x    1.78x    kept
shapes only when no single at all (staged)     1.40x       1.36x    1.82x    kept
``_place``/``_shapes`` not inlined             same        same     same     noise; kept inlined
hidden singles before naked singles            worse       worse    worse    rejected
branch-free clearing in ``_place``             1.45x       1.44x    1.91x    kept
=============================================  ==========  =======  =======  =====================

Measured, second round (each change against the kernel9 before it, in the same process, CPU time, best of 2-3
runs; first 10,000 puzzles of kaggle / 17_clue / forum_hardest (5,000 for the indented scoring variants), all of
top95 and top1465; ratios > 1 are faster; differences within about 3% are noise on this shared machine;
g = guesses/puzzle):

=================================================  ======  =======  =====  =======  ======  ====================
change                                             kaggle  17_clue  top95  top1465  forum   kept?
=================================================  ======  =======  =====  =======  ======  ====================
``cttz`` intrinsic; solution written per digit     1.26    1.13     1.01   1.03     1.01    kept
last alternative in place (no copy, no new level)  0.99    1.02     1.00   0.97     0.96    noise; re-measured
flat state + offsets instead of row views          1.02    0.99     0.94   0.94     0.94    base for the next
+ ``_propagate``/``_choose`` inlined               0.97    0.96     0.89   0.89     0.89    rejected: 87 atomic
                                                                                            refcount calls
flat state + borrowed arrays (``_borrow``)         1.16    1.08     1.01   1.04     1.10    kept (perf: refcount
                                                                                            was 30% of samples)
+ ``_propagate``/``_shapes``/``_choose`` inlined   1.14    1.02     0.98   0.99     0.99    kept (one call site)
row views of the borrowed array (no wraparound     1.00    1.02     1.16   1.13     1.20    kept
checks on ``s[o + i]``)
``error_model="numpy"``                            1.01    0.99     1.00   1.00     1.00    kept (free)
branch on the bivalue cell with most open peers    1.00    1.03     1.35   1.31     1.32    kept; g 11.7 -> 6.95,
                                                                                            73.4 -> 43.2
  scored by fewest places of its digits            --      0.97     --     0.94     0.83    rejected (g 10.5)
  scored by most places of its digits              --      1.02     --     1.09     1.01    rejected (g 8.5)
  open peers in row and box only                   --      1.03     --     1.24     1.14    superseded (g 7.5)
  + bivalue peers in the score                     --      1.05     --     1.33     1.26    noise vs open peers
                                                                                            only; rejected
  fallback cell: fewest candidates, most peers     --      1.02     1.01   1.01     1.00    noise; rejected
naked singles placed digit by digit                0.96    0.96     0.99   0.98     0.99    rejected
hidden singles on open places only (``F & U``)     0.98    1.54     1.48   1.47     1.40    kept
naked single placed without clearing others        1.39    1.12     1.10   1.11     1.11    kept
``search9_rows`` passes borrowed arrays            1.06    1.03     1.00   1.01     1.02    kept
hidden singles: open word read once per word       1.01    1.00     0.98   0.99     0.98    rejected
last alternative in place (vs always a copy)       --      0.99     1.01   1.02     1.03    kept
bivalue digit order by places (fewer first)        --      0.99     1.00   1.00     0.95    rejected (g 43->47)
bivalue digit order by places (more first)         --      0.99     1.00   0.93     0.97    rejected (g 43->42)
hidden singles in the same pass as naked singles   0.70    0.82     0.82   0.81     0.85    rejected
``_place``'s clearing loop written out (LLVM       0.99    0.94     0.94   0.95     0.91    rejected
vectorises the loop with AVX-512 gather/scatter)
stages naked -> shapes -> hidden                   0.98    0.90     0.93   0.93     0.94    rejected
no hidden singles in boxes (shapes find them:      0.98    0.94     1.00   1.00     0.97    rejected
the same guesses)
naked single's digit read off 4 bit planes of the  1.37    1.06     1.08   1.06     1.07    kept
digit index (no search through the 9 words)
hidden single test by ``popcount == 1``            1.05    1.01     0.99   1.00     0.98    noise; rejected
=================================================  ======  =======  =====  =======  ======  ====================

The whole second round on the full sets (``python benchmarks/solve.py --compare-with OLD_KERNEL9.py``): see
``docs/engine.md``.

Measured, third round (issue #22, against tdoku's ideas; guesses per puzzle are exact, times are CPU time on
a machine at load 8-18, in-process or alternating processes, best of 3; top1465, the first 4,000 of
forum_hardest_1905_11plus; L1 = first solution, L2 = count to 2):

=================================================  ==============  ==============  ===============  ==========
change                                             top1465 L1/L2   forum L1/L2     time vs before   kept?
                                                   guesses         guesses
=================================================  ==============  ==============  ===============  ==========
before (bivalue cell with the most open peers)     6.95 / 10.36    42.95 / 82.80   --               --
branch on a digit's *way* across a band or stack   8.75 / 14.36    46.95 / 85.97   0.89x / 0.82x    rejected
(tdoku: the band with the fewest ways in all, its  (tdoku: 6.07 /  (34.1 / 62.0)
digit with the fewest, 2 first)                    8.94)
bivalue cell first, else a digit with two ways     6.88 / 10.33    43.38 / 81.60   0.93x / 0.94x    rejected
naked triads: a mini-row or mini-column where only 6.01 / 8.88     41.81 / 80.46   0.70-0.97x /     rejected
three digits can go locks them (both orientations,                                 0.80-0.85x
at each fixed point after the shapes)
rule check fused into the last step (``check9``)   --              --              kaggle 1.19x,    kept
instead of ``verify`` over the batch                                               17_clue 1.08x
batch timed as a whole (``timing="batch"``)        --              --              ~3% (noise)      kept
``count9``: 5 dispatcher arguments instead of 14   --              --              count_array      kept
(tables as compiled-in constants)                                                  7.7 -> 2.8 us
                                                                                   (kaggle), 23.0 ->
                                                                                   18.1 us (top1465)
=================================================  ==============  ==============  ===============  ==========

The naked triads are tdoku's "triads" seen from the digits' side; they cut the guesses below tdoku's on
top1465 but cost more per node than they save here (they scan all 27 words and three column folds at every
fixed point); keeping them cheap needs tdoku's stored per-band configuration state, which this kernel does
not keep. Branching on ways alone guesses more because the shapes already apply what a way fixes.

Where the time goes (fourth round, issue #22; counts per puzzle from an instrumented copy, counting to 2):

===========================  =======  ====================  =================  ===============  ============
set                          guesses  propagation passes    naked band scans   hidden singles:  shapes:
                                                                               digits visited   digits
===========================  =======  ====================  =================  ===============  ============
kaggle_sample (5,000)        0.00     4.5                   12.0               0.0              0.0
17_clue (5,000)              0.52     23.5                  53.5               50.4             7.3
top1465                      10.36    117.2                 244.1              154.0            65.1
forum_hardest (3,000)        82.05    748.1                 1553.9             927.2            418.4
===========================  =======  ====================  =================  ===============  ============

So a guess costs about 9 passes: 19 naked-single scans of a band, 11 digits checked for hidden singles and 5
for shapes; no one step dominates. Measured shares (a copy without the step or with it run twice, in one
process): the answer check was 26% of the kernel's time on kaggle_sample (1.36x without it), 6% on 17_clue;
``_choose`` was 6% on top1465 and forum_hardest (5.6% slower when run twice).

Measured, fourth round (issue #22; CPU time, one process, interleaved, best of 5; the machine at load 8-10;
first 10,000 / 4,000 puzzles of the large sets; L1 = first solution, L2 = count to 2; ratios > 1 are faster):

=================================================  ======  =======  =======  =======  =====  ==========
change                                             kaggle  17_clue  top1465  forum    serg   kept?
=================================================  ======  =======  =======  =======  =====  ==========
givens compared branch-free in ``check9`` (a       1.23    1.02     --       --       --     kept
mispredicted branch per given cost more than the
comparison)
givens found as a bit mask per band (no branch     1.32    1.02     1.02     --       1.00   kept
per cell), then placed by bit scan (first
solution; counting to 2: kaggle 1.24, 17_clue
0.99, forum 0.98)
hidden singles in rows and boxes: one test,        --      1.01     1.02     1.02     1.02   kept (all 8
``popcount == 1``, and no skip of a band without            1.03 L2  1.04 L2  1.03 L2  1.05   runs > 1)
open places (first solution; L2: counting to 2)
+ rows and boxes of all three bands, not only the  1.00    1.10     1.06     1.06     1.01   kept (same
bands whose words changed                                   1.10 L2  1.04 L2  1.05 L2  1.01   guesses)
``_choose``: open peers from per-bit tables, the   1.01    1.00     1.04 L1  1.04 L1  1.07   kept (same
other bands packed into one word (no division                       1.01 L2  1.04 L2  L1     choices)
by 9; two popcounts instead of three)
naked singles: digit planes only for bands with    1.03    1.00     1.00     1.01     --     noise;
a single (second pass over the words)                                                        rejected
naked singles: a band scanned again at once when   0.85    0.90     0.90 L2  0.93 L2  --     rejected
its own placements changed it
naked singles: every band with open cells scanned  1.01    1.00     1.02 L2  1.01 L2  --     noise;
(not only those whose words changed)                                                         rejected
shapes: words written back branch-free             --      0.99     0.98 L2  0.99 L2  0.95   rejected
shapes: all three bands of a changed digit         --      0.98 L2  1.00 L2  1.01 L2  0.98   noise;
                                                                                             rejected
hidden singles: all nine digits, not only the      --      1.01 L2  0.96 L2  0.93 L2  0.90   rejected
changed ones (the column folds cost more)
``_choose``: the best cell kept by selects, not a  --      --       0.99 L2  0.99 L2  0.96   rejected
branch (LLVM had if-converted it already)
mini-row triads (a mini-row where three digits     --      --       1.00 L2  0.94 L2  --     rejected
can go holds them), bands changed since the                         (g 10.36 (g 82.5
last run, at each fixed point                                       -> 9.57) -> 81.4)
+ mini-column triads (all stacks)                  --      --       0.97 L2  0.86 L2  --     rejected
                                                                    (g 8.88) (g 80.2)
=================================================  ======  =======  =======  =======  =====  ==========

The triads cut the guesses on top1465 below tdoku's (8.88 against 8.94) but hardly on forum_hardest, where
tdoku's lead is in the guesses (61.5 against 82.3 counting to 2); its time per guess is 5-15% below this
kernel's there (time over guesses: 0.79 against 0.83 us at load 4-5, 0.77 against 0.87 us at load 6-8).

Measured, fifth round (issue #22: triads and tdoku's branch; ``/tmp`` copies of this file A/B in one process,
interleaved, CPU time, best of 3; first 10,000 / 4,000 puzzles of the large sets, all of the others; the machine
at load 2-6; L1 = first solution, L2 = count to 2; g = guesses/puzzle before -> after; ratios > 1 are faster):

==================================================  =================  ==============  ==============  =========
change                                              top1465 L1 / L2    forum L1 / L2   others          kept?
==================================================  =================  ==============  ==============  =========
triads (naked + hidden, mini-rows + mini-columns),  0.94 / 0.96        0.85 / 0.87     --              alone no
cell branching as before                            g 5.82 / 8.58      g 41.8 / 80.1
tdoku's branch (band/stack with the fewest ways,    0.86 / 0.80        0.93 / 0.98     --              alone no
a two-way digit), no triads                         g 8.75 / 14.36     g 47.0 / 86.0
both                                                0.89 / 0.90        0.88 / 0.97     --
                                                    g 5.86 / 8.87      g 35.6 / 63.7
+ triads' second pass only when a mini-line is      0.93 / 0.93        0.94 / 1.01     --
naked xor hidden
+ branch score: (digit, mini-line) pairs, not ways  0.95-1.00 /        0.97-1.03 /     see below       kept
                                                    0.98-1.02          1.07-1.12
                                                    g 5.79 / 8.76      g 34.9 / 61.7
+ score left by the triads in word 30 (no second    1.00 / 0.99        0.99 / 0.99     --              kept (one
pass over the words to choose)                                                                         pass less)
+ mini-rows and mini-columns in one int64, one      1.00-1.01 /        1.00-1.01 /     serg 1.01-1.03  kept
count and one lock test for both                    1.00-1.01          1.00-1.01
==================================================  =================  ==============  ==============  =========

Against the kernel before the round (the same A/B, five runs at load 2-7, L1 / L2): kaggle 0.98-1.01 /
0.98-1.01, 17_clue 0.97-1.01 / 0.98-1.02 (g 0.49 -> 0.41 L2), norvig_top95 0.89-0.95 / 0.78-0.82 (g 9.03 ->
11.95: tdoku's branch guesses more there, tdoku itself 11.05), top1465 0.99-1.06 / 0.99-1.08 (g 10.36 -> 8.76),
forum_hardest 1.01-1.08 / 1.11-1.15 (g 82.8 -> 61.7; tdoku 61.5), forum_hardest_1106 1.12-1.18 / 1.06-1.15
(g 141.7 -> 112.0), serg 0.95-1.02 / 0.91-0.98 (g 6.31 -> 6.92). On top95 one puzzle (line 7) went from 14
to 194 guesses counting to 2 (tdoku: 156); 40 others guess less, 39 more. Hidden triads matter with tdoku's branch:
naked ones alone left forum at g 75.8 (L2). Not kept: hidden triads only (g 64.4), triads of one orientation
only (g 73-74), a bivalue cell first and a way only when there is none (forum g 79.6, 0.87x), a way only when
its unit has a two-way digit (g 62.8, 1.08x: no better), the two-way digit whose ways share no mini-row first
or the one whose ways share one (the same guesses, 0.95-0.99x), ties to the last unit (noise), the old search
for the first 4, 10 or 20 guesses then the new one (top95 L2 0.81-0.94x, forum L2 1.00-1.01x: the runtime
switch cost more than it saved), the same switch by open cells (45 or more: forum L2 g 65.7, top95 g 10.8;
within this machine's noise otherwise), a two-way digit from the next units when the best has none
(0.96-0.99x, the same guesses), and the triads once per propagation with the score of that pass kept
(0.94-0.99x: more guesses on forum and top95). A unit without a digit of two or more ways cannot be chosen at a
fixed point; the choice would fall back to a cell if it ever were. One unproductive triads pass costs about 8%
of the search on top1465 and forum_hardest (run twice: 0.91-0.93x) and 15% on serg; choosing by ways 2-3%.

Branch choice (sixth round, issue #22; :func:`_choose_way` variants in ``/tmp`` copies of this file, guesses per
puzzle exact, first solution / counting to 2; norvig_top95, top1465, the first 4,000 of forum_hardest_1905_11plus,
forum_hardest_1106, serg_benchmark; "unit" is a band or a stack):

==================================================  ===========  ==========  ============  ============  =========
choice                                              top95        top1465     forum         1106          serg
==================================================  ===========  ==========  ============  ============  =========
kept: the unit with the fewest (digit, mini-line)   6.22 / 11.95 5.79 / 8.76 34.93 / 61.72 51.75 /       6.05 /
pairs, in it the first digit with two ways                                                111.99        6.92
unit with the most pairs (the sign checked)         18.7 / 30.5  12.6 / 20.7 82.1 / 171.2  195 / 421     7.0 / 7.6
unit with the most two-way digits                   11.2 / 17.9  8.6 / 13.9  45.0 / 87.4   95.0 / 214    6.7 / 7.2
any unit's two-way digit with the most cells there  14.5 / 27.6  12.2 / 20.6 82.4 / 161.7  135 / 275     6.2 / 7.0
... with the fewest cells there                     7.4 / 12.6   8.1 / 12.6  56.5 / 114.6  120 / 261     6.6 / 7.2
the unit's two-way digit with the most cells in it  6.27 / 12.02 5.86 / 8.92 36.73 / 65.39 59.9 / 111.4  6.10 / 6.93
... with the fewest cells in it                     6.33 / 12.05 5.97 / 8.75 35.17 / 63.88 56.3 / 116.7  6.46 / 7.09
... the last two-way digit                          6.24 / 12.71 5.96 / 8.91 37.87 / 68.78 70.8 / 116.8  6.93 / 7.41
... the most places in the grid                     6.01 / 12.11 5.83 / 8.85 36.40 / 63.95 58.4 / 109.1  6.09 / 6.97
... the fewest places in the grid                   6.02 / 11.82 6.00 / 8.71 36.65 / 66.70 63.7 / 121.5  6.61 / 7.18
... the most open places / the fewest placed        5.99 / 12.01 5.83 / 8.87 36.45 / 63.98 58.6 / 109.3  6.09 / 6.97
                                                    6.71 / 12.28 5.98 / 8.93 36.00 / 63.00 55.8 / 108.6  6.09 / 6.99
... two ways in the most other units                5.96 / 11.21 5.99 / 8.74 35.71 / 63.81 55.9 / 113.2  6.45 / 7.08
ties of units: stacks before bands                  5.83 / 11.12 5.93 / 8.93 34.86 / 61.08 51.5 / 111.3  5.79 / 6.82
ties: fewest ways (tdoku's count) / most two-way    5.99 / 11.65 5.85 / 8.81 35.06 / 62.13 51.7 / 113.6  6.05 / 6.92
digits                                              6.03 / 11.81 5.87 / 8.83 35.02 / 62.32 52.0 / 113.7  6.05 / 6.92
ties: fewest / most open cells in the unit          6.09 / 11.85 5.95 / 9.04 34.87 / 61.30 51.6 / 109.9  6.00 / 6.86
                                                    5.98 / 11.63 5.68 / 8.58 35.24 / 62.58 53.1 / 114.3  6.04 / 6.92
first way: more / fewer cells of the digit (first   7.52         6.06        33.96         55.86         6.49
solution only; counting to 2 the same)              6.80         5.68        34.34         56.94         5.54
==================================================  ===========  ==========  ============  ============  =========

None lowers the guesses on every hard set; every row was rejected. Two of them measure the sets rather than the
rule: with the puzzles transposed (rows for columns) "stacks before bands" and the kept choice swap their
figures exactly, and with the digits relabelled (d -> 10 - d) the kept choice guesses 6.25 / 12.71, 5.96 / 8.91,
37.73 / 68.80, 71.8 / 116.9 and 6.94 / 7.41, i.e. "the last two-way digit" above. The sets' labelling favours the
first digit (in forum_hardest_1905_11plus the digit 1 has 1.92 givens a puzzle, the digit 7 3.34; tdoku too
branches on its lowest digit). The places rows hardly move under relabelling (most places: 5.97 / 12.21, 5.74 /
8.86, 36.45 / 64.36, 60.7 / 109.3, 6.31 / 7.17), so they are the label-free choice, 2% more guesses than the
kept one on the sets as given (forum +3.6%, forum_hardest_1106 -2.6%). At the first choice point alone, forcing
each two-way (unit, digit) in turn with the kept choice below (counting to 2): the best one would give 3.31
guesses on norvig_top95 against 13.51 (the puzzles that guess), 3.76 against 9.51 on top1465, 45.1 against 62.6
on forum (first 600), 77.9 against 112.0 on forum_hardest_1106; no feature of the unit or the digit found that
gain (pairs with or less two-way digits, open cells, ways, cells, places; every rule within 5%, some better on
one set and worse on another). A look-ahead there (both alternatives of every two-way option propagated, a
failed one taken at once, else the fewest open cells left) gave 10.24 and 7.91 on norvig_top95 and top1465 but
68.4 against 63.0 on forum's first 400, for about 50 propagations at the first choice point: not tried in the
kernel.
norvig_top95's seventh line: at its first choice point band 2 and stack 1 have the fewest pairs (47), band 2 is
taken and its first two-way digit (1) leads to 194 guesses counting to 2; every two-way digit of those two units
leads to 155-196, while stack 0, with the most pairs (55), has the digit 6 with 5 and the digit 2 with 13 (the
old bivalue-cell branch: 14). One puzzle's first choice, which no rule above picks without losing elsewhere.

Compile time: ``_place`` and ``_propagate`` are numba functions of their own, not ``inline="always"`` (numba
typed and lowered ten copies of ``_place`` inside ``search9``): a cold compile of ``search9`` fell from 12.4 s
to 3.1 s of CPU (batch speed the same on 17_clue and top95, 3-6% slower on forum_hardest, within this
machine's noise band). LLVM inlined the naked single's ``_place`` (then ``only=True``) and called the other
one; since the thirteenth round the naked singles are placed in ``_propagate`` itself.

Where a step goes (sixth round, issue #22): ``perf record`` of a process running only ``search9_rows`` on the
first 4,000 of forum_hardest (the compiled code dumped from memory and disassembled to attribute the samples):
naked singles ~20% of the samples, hidden singles ~24% (rows and boxes 12%, columns 12%), ``_place`` out of
line ~19%, the triads ~9%, the shapes ~8%, the search loop with ``_choose_way`` ~8%; on serg_benchmark the
shapes ~17%, naked singles ~29%. Each call of ``_place`` pushed its array arguments on the stack as seven words
each (the state and the cell masks), each call of ``_propagate`` six arrays (42 words).

Measured, sixth round (issue #22: cost per step; ``/tmp`` copies of this file A/B in one process, interleaved,
CPU time, best of 3; first 10,000 / 4,000 puzzles of the large sets, all of the others; the machine at load
6-9; L1 = first solution, L2 = count to 2; the guesses are the same in every row; ratios > 1 are faster):

==================================================  ===========  ===========  ===========  ===========  ========
change                                              top1465      forum        serg         others       kept?
                                                    L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ===========  ========
``_place`` reads the cell masks (``KEEP``) as       1.09 / 1.08  1.09 / 1.11  1.05 / 1.08  top95 1.08,  kept
compiled-in constants, not an array argument                                               17_clue 1.09
                                                                                           L1, kaggle
                                                                                           1.32 L1
``_propagate(s)``: all its tables compiled in       1.06 / 1.04  1.06 / 1.05  1.07 / 1.05  top95 1.04,  kept
(one array argument instead of six)                                                        17_clue
                                                                                           1.02, kaggle
                                                                                           1.04 L1
hidden singles visit the changed digits by bit      -- / 1.05    -- / 1.06    -- / 1.00    top95 1.06   kept
scan (``lowest_bit // 3``), not a test per digit
+ shapes alike                                      1.03 / 1.03  1.03 / 1.03  1.03 /       17_clue      kept
                                                                              1.01-1.05    0.98-1.00
the answer written digit by digit and band by     1.00 / --    -- / --      1.01 / 1.01  kaggle 1.03  kept
band (no division of the word index by 3)                                                  / 1.02,
                                                                                           17_clue 1.00
                                                                                           / 1.01
``search9``'s tables compiled in too (the           -- / 1.00    -- / 1.00    -- / 1.00    kaggle 0.99  noise;
per-puzzle call and the choice of branch)                                                               rejected
``_place`` ``inline="always"`` (numba inlines the   -- / 0.94    -- / 0.94    -- / 0.93    17_clue      rejected
seven call sites; before the two changes above:                                            0.92         (slower,
0.98-1.02)                                                                                              compiles
                                                                                                        more)
naked singles: the changed bands by bit scan        -- / 0.98    -- / 0.98    -- / 0.93    17_clue      rejected
(a mask built branch-free), not a test per band                                            0.97
hidden singles: a band's rows and boxes with one    -- / 0.99    -- / 0.99    -- / 0.97    17_clue      rejected
place gathered branch-free, then placed by bit                                             0.99
scan (one branch per band instead of six)
each digit's mini-lines kept in the state (words   1.00 / 1.00  1.00 / 1.02  1.00 / 1.01  17_clue      noise;
31..39, copied per guess), recomputed by the                                               1.00         rejected
triads only for the digits whose words changed
``_propagate`` ``inline="always"`` (into            -- / 0.95    -- / 0.96    -- / 0.95    kaggle 0.86  rejected
``search9``'s two call sites)
shapes: a digit's changed bands by bit scan too   -- / 1.02    -- / 1.01    -- / 0.99    17_clue      noise;
                                                                                           0.99         rejected
``_triads`` a function of its own (not inlined     -- / 1.00    -- / 1.01    -- / 0.99    kaggle 1.02  noise;
into ``_propagate``)                                                                                    rejected
==================================================  ===========  ===========  ===========  ===========  ========

Together (``python benchmarks/tdoku.py --repeat 5 --no-two-workers``, two runs at load 5.2-6.4, CPU shares
33-74%, so only indicative; L1 / L2 against tdoku): top1465 1.05-1.06x / 0.98-1.03x, forum_hardest_1905_11plus
1.05x / 1.02-1.04x, forum_hardest_1106 1.03-1.06x / 0.89-0.96x, serg 0.77-0.80x / 0.80-0.81x, norvig_top95
0.82-0.83x / 0.89-0.92x, kaggle 1.74-1.82x / 1.70-1.72x, 17_clue 1.39-1.40x / 1.24-1.35x. A cold compile of the
solver group (``sudokit warm-up -j 1 solver``): 21.3 -> 17.1 s of CPU.

Where a puzzle goes (seventh round, issue #22: serg_benchmark and norvig_top95; ``python
benchmarks/kernel9_steps.py``, first 4,000 puzzles, first solution, load 4.5-5.7): a serg puzzle (34-35 givens,
the top band nearly empty) leaves 43.8 open cells after its first fixed point and then needs 6.06 guesses, each
followed by a short propagation (7.34 calls of ``_propagate``, 31.5 passes, 54.3 naked-single band scans placing
45.0 cells, 10.8 hidden-single runs of which 3.3 place a digit, 7.5 shapes runs of which 1.1 change a word, 6.4
triads runs of which 0.4 change one); no set branches on a cell (the fallback of ``_choose_way``). CPU time per
puzzle: givens 0.12 us (5%), the first fixed point 0.29 us (13%), the search 1.74 us (81%) on serg; 0.14 / 0.98 /
4.22 us on norvig_top95 (the same split as top1465's: 0.10 / 0.90 / 4.41 us, where this kernel is level with
tdoku: top95's gap is its guesses, 6.22 / 11.95 against tdoku's 6.07 / 11.05). ``perf record`` of serg counting to
2 (the compiled code dumped and disassembled): ``_propagate`` 79% of the kernel's samples, ``search9`` 18% (a fifth
of it ``_choose_way``), ``_place`` out of line 3%, the reference-count calls on the borrowed state 0.5%; inside
``_propagate`` naked singles (scan and inlined placement) 36%, hidden singles 22%, the triads' counting loop 18%,
shapes about 20%. The answer's check is 2% of a serg puzzle (1.02x without it). No step is a hot spot; the
per-puzzle gap to tdoku on serg (2.1 against 1.75 us) is in the search, about 0.27 us per guess.

Measured, seventh round (``/tmp`` copies of this file A/B in one process, interleaved, CPU time, best of 3 (10 on
sets under 5,000); load 3.1-7.9; L1 = first solution, L2 = count to 2; the guesses and answers are the same in
every row; ratios > 1 are faster):

==================================================  ===========  ===========  ===========  =========
change                                              serg         top95        top1465      kept?
                                                    L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  =========
naked singles: a band later in the pass sees the    0.99 / 1.00  0.98 / 0.98  0.98 / 1.00  rejected
words changed earlier in it (``todo | s[30]``)
naked singles: the band loop written out (an        0.98 / 1.00  1.00 / 0.99  1.01 / 1.00  noise;
inlined function per band, its offsets constant)                                           rejected
hidden singles: a digit with no open place left     1.00 / 1.00  1.00 / 0.98  0.98 / 0.98  rejected
skipped (one test per digit)
hidden singles: the columns' counts with bands 0    0.98 / 0.98  0.99 / 1.03  1.00 / 0.98  rejected
and 1 side by side in one word
shapes and the triads' counts in one pass over the  0.99 / 1.03  1.00 / 0.98  0.99 / 0.99  rejected
digits (the column folds shared)
``_locked`` by a multiply (``z & (one * 0x49)``)    0.99 / 0.99  1.01 / 1.00  1.01 / 1.00  noise;
                                                                                           rejected
a naked single's own word not set again in          0.99 / 1.00  1.00 / 1.01  1.00 / 1.00  noise;
``_place`` (only the other path clears it)                                                 rejected
shapes of every word once before the first          0.95 / 0.95  0.98 / 0.98  0.97 / 0.99  rejected
propagation (the stage order near the start)
==================================================  ===========  ===========  ===========  =========

``python benchmarks/tdoku.py --repeat 3 --no-two-workers --sets serg_benchmark,norvig_top95`` on this tree (load
4.8-5.3, CPU shares 30-56%, indicative): serg 0.82x / 0.81x, norvig_top95 0.83x / 0.83x (L1 / L2).

Measured, eighth round (issue #22, helper x22; ``/tmp`` copies of this file A/B in one process, interleaved, CPU
time, best of 3; the first 3,000 of serg_benchmark and top1465, all of norvig_top95; load 3.4-5.7; the guesses
and answers are the same in every row; ratios > 1 are faster):

==================================================  ===========  ===========  ===========  =====================
change                                              serg         top95        top1465      kept?
                                                    L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  =====================
lookup tables as int32 (``SHRINK``, ``COMPLEX``,    0.98 / 1.00  1.01 / 1.03  0.99 / 1.00  noise; rejected
``EXPAND``, ``KEEP``, ``_WAYS``, ``_TCOL``: half
the cache footprint)
naked singles: the counts by a tree over the nine   0.85 / 0.86  0.87 / 0.82  0.90 / 0.90  rejected (2,134
words (depth 4, not a chain of 9; the digit planes                                         instructions in
shared: 27 operations instead of 40)                                                       ``_propagate``, not
                                                                                           1,854)
``_place``: ``b & 3`` and ``d & 15`` first, so      0.99 / 1.00  1.01 / 1.00  1.00 / 1.01  noise; rejected
numba's wraparound code on each index goes (11
sar/and/add sequences; 441 -> 312 instructions)
hidden singles: a row or box left without a place   0.82 / 0.83  0.66 / 0.65  0.63 / 0.67  rejected (the same
for the digit is a contradiction at once (18 more                                          nodes; likely the
branches per digit, either way about half the                                              new branches
time; no counters in this VM to count them)                                                mispredicting)
hidden singles: the column counts by a tree (each   1.00 / 1.01  1.00 / 0.97  0.98 / 0.99  noise; rejected
band's three rows, then the bands), not a chain of                                         (1106 0.99-1.00)
nine (forum_hardest_1106: 1.00 / 0.99)
``_choose_way``: the unit by a branch-free minimum  1.00 / 0.98  1.01 / 1.01  0.97 / 1.00  noise; rejected
of ``8 * score + unit`` (forum_hardest_1106:                                               (1106 0.98-1.01)
1.01 / 0.98)
==================================================  ===========  ===========  ===========  =====================

The branch after the first solution (counting to 2 only, so the first solution is untouched; guesses per puzzle
exact; the first 4,000 of forum_hardest_1905_11plus, the first 10,000 of 17_clue): a unit's refutation is what
counting to 2 spends on a unique puzzle, so a rule that refutes faster could run there alone.

==================================================  =====  =======  =====  ======  =====  =======  ==========
rule once a solution is found                       top95  top1465  forum  1106    serg   17_clue  kept?
==================================================  =====  =======  =====  ======  =====  =======  ==========
kept (the same rule throughout)                     11.95  8.76     61.72  111.99  6.92   0.41     --
units tied on pairs: fewest open cells first        11.98  8.81     61.70  111.82  6.92   0.41     rejected
... most open cells first                           11.85  8.75     61.81  112.26  6.92   0.41     rejected
the unit's two-way digit with the most open places  11.94  8.76     62.51  109.72  6.93   0.42     rejected
in the grid / the fewest                            11.81  8.71     63.84  117.14  6.88   0.41
the bivalue cell with the most open peers (the old  9.40   8.62     70.43  130.47  6.90   0.39     rejected
branch)
... only when the first solution took fewer than    10.56  8.74     61.74  111.99  6.91   0.42     rejected
4 guesses (8: 10.86, 8.89, 61.88, 112.06; 16:
10.79, 8.83, 62.32, 112.52; 32: 10.77, 8.82,
64.17, 114.90)
==================================================  =====  =======  =====  ======  =====  =======  ==========

The cell branch after the first solution wins on norvig_top95 by a few puzzles (line 7: 194 -> 79 guesses; lines
16 and 11: 55 -> 2 and 49 -> 2) and loses on 240 of forum_hardest_1106's 375 (118 better). With the threshold of
4 guesses the gain is mostly three puzzles (lines 16, 11 and 14; 8 better, 6 worse), which are top1465's lines
1097, 536 and 405, where 121 puzzles guess more and 59 fewer: a heavy tail of single puzzles, not a rule.

Outside the kernel: the batch API's cost around the kernel call, for one easy puzzle, was 16 us of the 19.3 us
a ``solve_all`` call took (CPU, the kernel call 3.0 us; ``cProfile`` and ``timeit``, load 4.5): the classic-9x9
test compared the geometry with ``standard()`` twice per batch, three function-level imports, ``np.flatnonzero``
for the BROKEN test, a three-pass value check of a clean uint8 array. That left 12.6 us; then (ninth round)
``for_cells(81)`` built a second 9x9 geometry, which the batch path compared unit by unit on every call, and
each integer argument went through an ABC check: 15.1 -> 10.3 us with one shared 9x9 instance and a fast path
for plain ints (the rest is the batch's arrays and the value check); on norvig_top95 (95 puzzles, about 470 us
a pass) that is 1% of a pass. On the Zen 3 (fourteenth round; ``timeit``, one solved puzzle, load 0.6) the call
took 20.7 us, the kernel call 1.7 us of it, and a norvig_top95 pass cost 14 us more through ``solve_all`` than
the kernel called directly (2.5%). Three numpy calls that each cost a microsecond more than their plain form
(``np.zeros_like``, ``np.full``, ``status.max()``, the last now a byte search of the status column) and the
value check of a clean uint8 array, which on this board the kernel does itself (a value over 9 makes the
puzzle invalid; only then is the array searched for it, to name it): 11.4 us a call, 4 us a norvig_top95 pass.

Where the last gaps are (ninth round, issue #22; ``python benchmarks/predictor.py --repeat 3``, one core, load
0.6-1.0; the first 1,500 puzzles of each set, either in file order with the list run 13 times over or with
each puzzle run 13 times in a row, so that the branch predictor has learnt a puzzle's branches from its
second run on; puzzles per CPU second, first solution / counting to 2):

==================  =========================  =========================  =======================  ===========
set                 tdoku repeated / file      sudokit repeated / file    sudokit / tdoku, file    ... repeated
==================  =========================  =========================  =======================  ===========
norvig_top95        0.98x / 1.14x              1.24x / 1.32x              0.82x / 0.86x            1.03x / 1.00x
serg_benchmark      1.10x / 1.12x              1.15x / 1.16x              0.81x / 0.79x            0.85x / 0.82x
top1465             1.46x / 1.47x              1.41x / 1.43x              1.11x / 1.07x            1.07x / 1.04x
top1465, first 95   1.00x / 1.25x              1.31x / 1.35x              0.76x / 0.90x            1.00x / 0.98x
==================  =========================  =========================  =======================  ===========

So the two sets behind differ. On norvig_top95 the work is level with tdoku's (1.03x / 1.00x when each
puzzle's branches are learnt); what is lost is the predictor. A list of 95 puzzles run over and over is one
the predictor learns for tdoku (file order costs it nothing at the first solution) but not for this kernel.
The first 95 puzzles of top1465 behave the same way (the last row: ``--count 95 --times 100``): this kernel is
at 0.76x there against 1.11x on the whole set, where the predictor learns neither solver.
``valgrind --tool=callgrind --branch-sim=yes`` on the first solution of norvig_top95 gives per puzzle (both
built for AVX2, since valgrind does not run AVX-512 code: tdoku with ``-DAVX2=ON``, numba with
``NUMBA_CPU_NAME=haswell``):

* tdoku: 41,100 instructions and 1,400 conditional branches, 220 of them mispredicted by valgrind's model;
* this kernel: 81,200 instructions and 5,540 conditional branches, 570 of them mispredicted.

The hidden singles' rows and boxes make 2,100 of those branches (six tests and the band loop, about 300
times a puzzle). valgrind's model mispredicts most often on these: which bands changed and whether one holds a
naked single (about 150 a puzzle); whether a pass found anything, which digits changed (hidden singles,
shapes) and the shapes' band tests (about 130). On serg_benchmark the work itself is behind (0.85x / 0.82x with
the branches learnt): this kernel spends about 0.27 us a guess, while tdoku solves a puzzle, 6.4 guesses, in
1.6 us.

Measured, ninth round (``/tmp`` copies of this file A/B in one process, interleaved, CPU time, best of 3; all
of norvig_top95, the first 3,000 of serg_benchmark and top1465; load 0.6-1.5; the guesses and answers are the
same in every row; ratios > 1 are faster):

==================================================  ===========  ===========  ===========  =====================
change                                              top95        serg         top1465      kept?
                                                    L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  =====================
hidden singles: a digit's rows and boxes in all     1.00 / 1.02  0.99 / 0.99  1.00 / 1.00  noise; rejected (the
three bands found branch-free, one test a digit                                            2,100 branches it
(about 100 branches a puzzle instead of 2,100)                                             saves are predicted)
naked singles: every band scanned branch-free and   1.02 / 1.00  0.95 / 0.95  1.00 / 1.01  rejected
one test for any single (the digit planes only
for the bands that have one)
... and each single's digit found by comparing its  0.91 / 0.93  0.86 / 0.83  0.94 / 0.94  rejected
cell with the nine words (no digit planes)
every band scanned, one test (the second row),      1.03 / 1.04  0.97 / 0.98  1.06 / 1.05  rejected (serg; and
compiled with LLVM's SLP vectoriser (numba's                                               numba turned SLP off
``NUMBA_SLP_VECTORIZE``): the three bands' scans                                           after miscompiles,
in vector registers                                                                        numba PR 8852)
this kernel as it is, with the SLP vectoriser       0.98 / 0.99  0.99 / 0.98  0.99 / 0.99  rejected
==================================================  ===========  ===========  ===========  =====================

What would close the gaps is fewer data-dependent branches in every pass (tdoku's whole-grid vector steps:
the singles of all cells at once, no per-band or per-digit test), not another rule: a different kernel. numba
does not vectorise the three bands' scans by default: a loop over four words of the state is unrolled and
stays scalar (checked on a small copy of the scan), and only the SLP vectoriser, off by default, packs it into
vector registers. Vector steps would have to be written as such (LLVM vector types through
``numba.extending.intrinsic``), not left to the optimiser.

On another processor (tenth round, issue #22): the rounds above ran on a CPU with AVX-512; on an AMD EPYC (Zen
3, AVX2 only, numba's target ``znver3``) this kernel stands lower against tdoku (``docs/engine.md``, "On another
processor"). ``valgrind --tool=callgrind --branch-sim=yes`` there, per puzzle, each solver's own machine code
only (tdoku's library called through ``ctypes``, the cost of the call measured with an empty C function and
taken off; this kernel in one batch call), sudokit / tdoku:

==================================  ==================  ==================  =======================
set, mode                           instructions        conditional         mispredicted (valgrind's
                                                        branches            model)
==================================  ==================  ==================  =======================
serg_benchmark (300), first         39,710 / 17,628     2,764 / 491         253 / 72
serg_benchmark (300), count to 2    45,356 / 19,801     3,131 / 562         292 / 85
norvig_top95, first                 78,007 / 40,452     5,752 / 1,127       585 / 209
==================================  ==================  ==================  =======================

So on serg_benchmark too the work is about twice tdoku's in instructions (its AVX2 instructions count one each)
and five times in branches. Changes measured there (A/B copies in one process, interleaved, best of 3, load
about 1; top95 / serg / top1465, L1 / L2): ``_place`` with ``inline="always"`` 0.98 / 1.00, 0.97 / 0.99, 1.00 /
0.99; ``_propagate`` with ``inline="always"`` 0.95 / 0.95, 0.94 / 0.93, 0.94 / 0.94; the kernel compiled with the
SLP vectoriser (``NUMBA_SLP_VECTORIZE=1``, processes in turn) within the noise (0.8-1.15 run to run). None kept.

Vector steps (eleventh round, issue #22, the same Zen 3): a numba type whose LLVM value is ``<4 x i64>``
(:mod:`sudokit.lanes`) lets a step be written on a digit's three band words at once; numba lowers each operator
to one AVX2 instruction and keeps the value in a register. Rows are ``/tmp`` copies of this file A/B in one
process, interleaved, best of 3-5, CPU time, load 0.1-0.9; the first 3,000 of the large sets, all of the others;
L1 = first solution, L2 = count to 2; the answers, counts and guesses are the same in every row; ratios > 1 are
faster:

==================================================  ===========  ===========  ===========  ==============  =====
change                                              serg         top95        top1465      others          kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ==============  =====
naked singles: the three bands in one vector pass   0.99 / 1.01  1.06 / 1.00  1.05 / 1.04  kaggle 1.14 /   kept
every pass (not the changed bands one by one)                                              1.17, 17_clue
                                                                                           1.05 / 1.06
+ hidden singles: all 27 units of a digit in one    1.07 / 1.09  1.10 / 1.09  1.06 / 1.05  17_clue 0.96 /  kept
vector pass (rows in 16-bit fields, boxes by                                               0.95, forum
transposing the band, columns across lanes)                                                1.04 / 1.04,
                                                                                           1106 1.06 /
                                                                                           1.03
+ shapes: permutation support computed on the       1.05 / 1.02  1.05 / 1.03  1.03 / 1.00  --              kept
vector (no table look-ups; stacks by rotating
lanes)
the three together, against the kernel before       1.10 / 1.10  1.12 / 1.10  1.07 / 1.08  kaggle 1.12 /   --
                                                                                           1.13, 17_clue
                                                                                           0.95 / 0.94
triads: the counts on the vector, one lane per      1.02 / 1.03  1.03 / 1.00  1.02 / 1.03  1106 1.03 /     kept
band (the column's other two mini-columns rotated                                          1.04, forum
in; the one-word layout only for the rare second                                           1.02 / 1.02,
pass); both orders, best of 5                                                              17_clue,
                                                                                           kaggle 0.99 -
                                                                                           1.01
all four against the kernel before (both orders,    1.18 / 1.14  1.23 / 1.13  1.10 / 1.11  kaggle 1.12 /   --
best of 3)                                                                                 1.14, 17_clue
                                                                                           0.96 / 0.97,
                                                                                           1106 1.10 /
                                                                                           1.14
==================================================  ===========  ===========  ===========  ==============  =====

One copy measured 275,000 to 319,000 serg puzzles a second from one process to the next (the code's place in
memory moves with what else was compiled), so the rows below, each against the kernel as kept, are the
geometric mean of runs in both orders (A/B and B/A, one or two processes each way):

==================================================  ===========  ===========  ===========  ===========  ========
change                                              serg         top95        top1465      17_clue      kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ===========  ========
hidden singles: rows and boxes one test each as     0.98-1.01 /  1.02 / 0.99  0.99 / 1.04  1.10 / 1.10  rejected
before (the next test sees a placement), columns    0.95-0.97                 (1106 1.02                (serg)
on the vector                                                                 / 1.00)
hidden singles all as before, the other two steps   0.97 / 0.95  0.99 / 1.02  0.99 / 1.03  1.11 / 1.09  rejected
on vectors                                                                                              (serg)
hidden singles: every changed digit's singles       0.95 / 0.97  0.93 / 1.00  0.93 / 0.94  0.94 / 0.94  rejected
found first (no branch per digit), then found
again and placed digit by digit
hidden singles: a digit looked at again after its   0.97 / 0.98  0.94 / 0.95  0.96 / 0.95  0.98 / 0.98  rejected
placements, until it has none
hidden singles: a digit's words read by three       0.99 / 0.99  1.00 / 0.99  1.01 / 1.00  1.01 / 1.00  noise;
scalar loads (no store-to-load forwarding across                                                        rejected
the last placements' stores)
``_place``: the digit's three words and the cell's  0.98 / 0.99  0.98 / 0.99  0.98 / 1.01  0.98 / 0.98  rejected
masks as one vector load, AND and store
shapes on all nine digits (a loop of nine, no bit   0.91 / 0.88  0.95 / 0.91  0.91 / 0.92  0.96 / 0.99  rejected
scan of the changed ones)
shapes: band and stack shapes from the same words,  1.01 / 0.99  1.03 / 0.99  1.02 / 0.99  0.98 / 1.01  noise;
one contradiction test after the loop                                                                   rejected
+ a digit skipped when its mini-rows and column     1.01 / 1.02  0.99 / 0.96  0.99 / 1.00  1.02 / 0.99  noise;
folds are those it last passed unchanged (nine                                                          rejected
more state words, copied per guess)                                                                     (exact)
==================================================  ===========  ===========  ===========  ===========  ========

Where the time goes now (each step run twice where it found nothing, so that the results stay the same; both
orders): the triads twice cost serg 0.83 / 0.86 and top95 0.93 / 0.92 (before their counts went on the vector),
the shapes twice 0.92 / 0.88 and 0.95 / 0.95. Not kept either: the naked singles' words read by scalar loads
(noise), and the triads' eliminations left out with their counts kept for the branch (serg 1.05 / 1.09 with 6.45
guesses instead of 6.06 first solution, top95 0.92 / 0.95).

The vector hidden singles cost 17_clue (hidden singles there are found many at a time, and the tests one by one
see each placement at once) what they gain on serg, where this kernel is furthest behind tdoku; 17_clue stays
well ahead of tdoku (``docs/engine.md``).

State layout (twelfth round, issue #22, the same Zen 3). A ``perf`` profile of serg_benchmark (the kernel's
machine code dumped from the process, samples per instruction) put 5% of the time on the first use of the
naked singles' vector load of the open cells: that load spanned word 30, which the pass had just set to 0 by a
one-word store, and a load that spans several smaller stores cannot take its data from the store buffer, so it
waits until they reach the cache. The digits' words had the same trouble after every placement (``_place``
stored them one word at a time, the next step loaded them as vectors). Rows as in the eleventh round's second
table (``/tmp`` copies A/B in one process, both orders, best of 3, geometric mean; load 0.2-1.0; the answers,
counts and guesses are the same in every row):

==================================================  ===========  ===========  ===========  ==============  =====
change                                              serg         top95        top1465      others          kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ==============  =====
the open cells read by three one-word loads (the    1.01 / 1.03  1.03 / 1.03  1.00 / 1.02  17_clue 1.02 /  super-
naked and hidden singles)                                                                  1.01            seded
four words a digit (the fourth always 0), the open  0.96 / 1.04  1.04 / 1.05  1.04 / 1.03  17_clue 1.09 /  kept
cells likewise: ``_place`` and the shapes store                                            1.06, kaggle
whole vectors (``sudokit.lanes.store4``), every                                            1.09 / 1.08
step loads them (against the row above)
both against the kernel before (two processes each  1.04 / 1.05  1.10 / 1.08  1.06 / 1.08  1106 1.09 /     --
way)                                                                                       1.06
+ a guess's way and the givens written as vectors,  1.00 / 1.00  0.98 / 0.99  0.99 / 1.00  17_clue 0.99 /  noise
the empty-grid test on one vector                                                          1.00
==================================================  ===========  ===========  ===========  ==============  =====

Of the last row only the givens' vector writes are kept (noise either way): they read the same ``KEEP`` rows as
``_place``, so one table serves both.

Then, against the kernel with the four-word layout (the same method, one process each way):

==================================================  ===========  ===========  ===========  ==============  =====
change                                              serg         top95        top1465      others          kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ==============  =====
shapes: the digit's words stored whether or not     1.01 / 1.00  1.02 / 1.01  1.02 / 1.01  --              kept
they shrank (one vector store, no branch)
triads: a mini-row alone in its row read off the    1.00 / 1.00  1.00 / 1.00  0.98 / 0.98  --              noise;
row's other two boxes (the shapes' rotations)                                                              rejected
hidden singles without the test for a column with   1.00 / 1.00  1.00 / 0.99  0.99 / 0.99  --              noise;
no place left (the shapes find it later)                                                                   rejected
naked singles: no test for a band without one (its  1.02 / 1.00  1.00 / 1.00  --           --              noise;
empty bit scan ends at once; two processes each                                                            rejected
way)
the givens' cells found by one 32-byte compare a    1.01 / 1.01  1.01 / 0.99  --           kaggle 1.05 /   kept
band (``sudokit.lanes.byte_masks``), not a test a                                          1.04, 17_clue
cell                                                                                       1.01 / 0.99
==================================================  ===========  ===========  ===========  ==============  =====

Instructions (thirteenth round, issue #22, the same Zen 3). ``valgrind --tool=callgrind --branch-sim=yes
--dump-instr=yes`` on the first 300 of serg_benchmark (first solution; the kernel's machine code written out by
the process under valgrind, so that each instruction's count is attributed): 26,490 instructions a puzzle in the
kernel before the round (``_propagate`` 20,240, ``search9`` 5,440, ``_place`` 816). A hidden-singles visit of a
digit took 134 (41.6 visits a puzzle), a shapes visit 104 (33.2), the triads 55 a digit (6.5 runs of nine) and
168 for the branching score a run; in ``search9`` a guess copied the state as 40 one-word moves (which the next
step loads as vectors: the store-forwarding stall of the twelfth round again), ``check9``'s boxes took 1,017
(numba's wraparound code on every index) and writing the answer by bit scan about 600. After the box singles
(the row before the naked singles' placement in ``_propagate``): 24,218.
Rows as in the twelfth round (``/tmp`` copies A/B in one process, both orders, best of 3, geometric mean; load
0.1-1.0; the answers, counts and guesses are the same in every row):

==================================================  ===========  ===========  ===========  ==============  =====
change                                              serg         top95        top1465      others          kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ==============  =====
a guess copies the state as ten vector loads and    1.04 / 1.05  1.02 / 1.03  --           kaggle 1.06 /   kept
stores; ``check9``'s boxes indexed without                                                 1.05
wraparound code (now through an unsigned table)
a placement marks its digit (bit ``3 * d``), not    1.00 / 1.01  1.00 / 1.01  1.01 / 1.01  --              kept
the band words that changed (no step reads which
band)
the givens' validity test and masks on vectors      1.00 / 1.00  1.00 / 0.95  --           kaggle 1.02 /   noise;
                                                                                           1.00, 17_clue   rejected
                                                                                           1.00 / 0.99
a guess's way applied as one vector (``_follow``)   1.02 / 1.00  1.01 / 1.01  1.01 / 1.01  --              kept
the three kept, against the kernel before           1.05 / 1.05  1.03 / 1.03  1.04 / 1.04  1106 1.03 /     --
                                                                                           1.03, kaggle
                                                                                           1.06 / 1.06
naked singles: once / twice as a tree (not a chain  0.98 / 0.97  0.98 / 0.98  0.98 / 1.03  kaggle 0.96 /   rejected
of nine ORs)                                                                               0.97
(no answer written or checked: the bound)           1.04 / 1.03  1.01 / 1.01  --           kaggle 1.35 /   --
                                                                                           1.32
the answer written from four bit planes of the      1.01 / 1.01  1.02 / 1.00  --           kaggle 1.04 /   kept
values, eight cells a store (``_write``: no bit                                            1.03, 17_clue
scan per cell)                                                                             1.02 / 1.02
the hidden singles' ``_place`` inlined at its one   1.00 / 0.99  1.01 / 0.99  1.00 / 1.00  --              noise;
call site (two processes each way)                                                                         rejected
hidden singles in boxes read off the row-segments   0.99-1.02 /  0.99 / 1.00  1.03 / 1.02  17_clue 1.03 /  kept
(no band transposed and back; 775 fewer             1.00-1.03                              1.03, 1106
instructions a serg puzzle)                                                                1.00 / 1.00
the branching score summed on vectors (no popcount  1.00 / 1.00  1.00 / 0.99  1.00 / 1.00  1106 1.01 /     noise;
per plane and lane)                                                                        0.98            rejected
hidden singles without the empty-column test and    1.02 / 1.00  1.00 / 0.99  1.00 / 1.00  --              noise;
naked singles without the already-placed test (two                                                         rejected
processes each way)
naked singles placed in ``_propagate`` itself, the  1.00 / 1.03  1.00 / 1.01  1.00 / 1.01  kaggle 0.99 /   kept
open cells and the marks written once after the                                            1.02            (noise to
loop (``_place`` loses its ``only`` flag); again,   1.01 / 1.01  1.02 / 1.00                               1.02x;
two processes each way                                                                                     simpler)
a compiler barrier between writing the answer and   0.99 / 1.01  0.97 / 1.00  --           kaggle 1.05 /   noise;
checking it (LLVM forwards the written bytes into                                          1.03            rejected
``check9`` and keeps them on the stack)
==================================================  ===========  ===========  ===========  ==============  =====

Counting to 2 on puzzles with many solutions (fourteenth round, issue #22, the same Zen 3). Every puzzle of
serg_benchmark has two or more (median 130); counting to 2 there is finding a second solution, which cost 0.43 us
a puzzle after the first (0.86 more guesses, 1.85 more nodes). In 63% of them the first solution holds a deadly
rectangle with no given in it (two digits crosswise in four cells of two rows of a band, or two columns of a
stack), in 70% a longer cycle of that kind (two lines of a unit whose cells at some places hold the same
digits). Swapping it changes the way of its digits in that unit only, so the second solution lies behind a
choice point still to be tried on that (unit, digit): every rectangle found in the first 3,000 sat at one (the
deepest such point alone would have found one in 34% of the puzzles, against 63%). :func:`_deadly` therefore
looks only there, three row (column) pairs a point, branch-free, and ends the count at 2. Rows as in the
twelfth round (A/B in one process, both orders, geometric mean; load 0.1-1.0; first 3,000 of serg and top1465;
the answers and counts are the same in every row):

==================================================  ===========  ===========  ===========  ==============  =====
change                                              serg         top95        top1465      others          kept?
                                                    L1 / L2      L1 / L2      L1 / L2      L1 / L2
==================================================  ===========  ===========  ===========  ==============  =====
(the bound: which puzzles hold a rectangle, or a    -- /         --           --           --              --
cycle, told from outside; guesses 6.90 -> 6.59,     1.02-1.06,
6.57)                                               1.05-1.07
the cycles walked at every point still to be tried  0.99-1.01 /  0.99-1.05 /  1.00 / 0.97  17_clue 0.98 /  rejected
(22.7 steps a serg puzzle, each a look-up)          0.96-1.00    0.97-0.99                 0.97
``_deadly``: rectangles only, at every point still  1.00 / 1.03  0.99-1.01 /  1.00 /       17_clue 0.99 /  kept
to be tried, the deepest first, branch-free (serg:               0.99-1.01    1.00-1.03    1.00, kaggle
six processes; guesses 6.90 -> 6.59; not called                                            0.97-1.01 /
when the first solution needed no choice)                                                  1.00, 1106
                                                                                           1.01 / 1.02
hidden singles: a row or box without a place for    0.98 / 0.98  0.96 / 0.97  0.98 / 0.98  --              rejected
the digit ends the propagation (on the vector,
with the column test: one branch)
ties of units to the stacks, not the bands          1.03 / 1.01  1.07 / 1.07  0.99 / 0.99  1106 1.00 /     not kept
(the sixth round's labelling effect: transposed                                            1.01, 17_clue   (the sets'
puzzles swap the figures)                                                                  1.00 / 0.99     orientation)
==================================================  ===========  ===========  ===========  ==============  =====

The deadly rectangle is a proof, not a guess: the swapped grid keeps every row, column and box (the two rows
lie in one band, so the four cells in two boxes, two in each, and a box holding the digit twice cannot be a
solution) and every given; the test suite checks :func:`_deadly` against a brute-force search for such swaps.
Counting to a limit over 2 never uses it (the search could then find the swapped grid again).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import config, njit
from numba.extending import intrinsic

from sudokit.bits import lowest_bit, popcount
from sudokit.engine.clock import ticks
from sudokit.engine.kernel import BROKEN, CLOCK_EVERY, INVALID, NO_SOLUTION, TIMEOUT, finish
from sudokit.lanes import (
    any4,
    byte_masks,
    diff_lanes,
    lane,
    load4,
    make4,
    rot1,
    rot2,
    single16,
    splat4,
    store4,
    zero_lanes,
)


def _build_tables():
    shrink = np.zeros(512, dtype=np.int64)
    for x in range(512):
        shrink[x] = sum(1 << k for k in range(3) if (x >> (3 * k)) & 7)
    expand = np.zeros(512, dtype=np.int64)
    for s in range(512):
        expand[s] = sum(7 << (9 * r + 3 * k) for r in range(3) for k in range(3) if (s >> (3 * r + k)) & 1)
    keep = np.zeros((81, 4), dtype=np.int64)  # column 3 stays 0: a row is one vector of lanes
    full = (1 << 27) - 1
    for cell in range(81):
        row, col = divmod(cell, 9)
        band = row // 3
        bit = 1 << (cell - 27 * band)
        for bb in range(3):
            clear = 0
            for r in range(3):
                for c in range(9):
                    other = (3 * bb + r) * 9 + c
                    same_box = (3 * bb + r) // 3 == row // 3 and c // 3 == col // 3
                    if other != cell and (c == col or (3 * bb + r) == row or same_box):
                        clear |= 1 << (9 * r + c)
            keep[cell, bb] = full & ~clear
        assert keep[cell, band] & bit
    return shrink, expand, keep.reshape(-1)


#: ``KEEP``: what a placement on a cell leaves of its digit's three band words (``KEEP[4 * cell + band]``; the
#: fourth word 0), read as one vector.
SHRINK, EXPAND, KEEP = _build_tables()
#: ``_ONE_LANE[4 * b .. 4 * b + 3]``: all ones in lane ``b``, zeros elsewhere.
_ONE_LANE = np.array([-1 if k == b else 0 for b in range(4) for k in range(4)], dtype=np.int64)
#: The state's layout (the module's docstring): digit ``d``'s band ``b`` at ``4 * d + b``, the open cells at
#: ``OPEN + b``, the changed words (or the branching score) at ``MARK``; :data:`STATE_WORDS` words a state.
OPEN = 36
MARK = 40
STATE_WORDS = 44
#: For each bit of a band word: its column in the band, and its peers in the band (row, box and column). With
#: the other two bands' open cells packed into one word (``u1 | u2 << 27``), a bivalue cell's open peers are
#: two popcounts (:func:`_choose`; the divisions by 9 and three popcounts it replaced cost 4-7%).
_COL = np.array([0x40201 << (i % 9) for i in range(27)], dtype=np.int64)
_BAND_PEERS = np.array(
    [(0x1FF << (9 * (i // 9))) | (0x1C0E07 << (3 * ((i % 9) // 3))) | (0x40201 << (i % 9)) for i in range(27)],
    dtype=np.int64,
)
#: The six ways a digit crosses a band (bit ``3 * row + box``) or a stack (bit ``3 * band + column``), and for
#: each 3x3 pattern the ways inside it (bit k: ``_WAY[k]``).
_WAY = np.array([sum(1 << (3 * r + p[r]) for r in range(3)) for p in itertools.permutations(range(3))], dtype=np.int64)
_WAYS = np.array([sum(1 << k for k in range(6) if _WAY[k] & x == _WAY[k]) for x in range(512)], dtype=np.int64)


try:  # an internal of numba's array model: if a numba release moves it, the kernels run unborrowed (slower)
    from numba.np.arrayobj import populate_array
except ImportError:  # pragma: no cover - exercised in a subprocess by the tests
    populate_array = None  # type: ignore[assignment]

if populate_array is not None and not config.DISABLE_JIT:

    @intrinsic
    def _borrow(typingctx, arr):
        """The same array without its reference count (a view whose meminfo is NULL).

        numba increfs/decrefs an array (two atomic instructions) each time it binds it to a name, e.g. at every
        inlined ``_place``; on a borrowed array those calls return at once. The caller keeps the owner alive."""

        def codegen(context, builder, signature, args):
            src = context.make_array(signature.args[0])(context, builder, args[0])
            out = context.make_array(signature.return_type)(context, builder)
            populate_array(
                out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None
            )
            return out._getvalue()

        return arr(arr), codegen

else:  # pragma: no cover - exercised in a subprocess by the tests

    @njit(cache=True, inline="always")
    def _borrow(arr):
        """Fallback: the array itself (reference counted as usual)."""
        return arr


@njit(cache=True, error_model="numpy")
def _place(s, d, b, bit):
    """Place digit ``d`` on the cell ``bit`` of band ``b`` in state ``s``.

    ``s`` is a state (the layout in the module's docstring); word ``MARK`` collects the changed digits (bit
    ``3*d`` for each digit whose words changed, ``d`` always: its open places did).
    False when the digit is no longer possible there (a contradiction)."""
    i = 4 * d + b
    if s[i] & bit == 0:
        return False
    if s[OPEN + b] & bit == 0:
        return True  # already placed (found twice in one pass)
    bv = splat4(bit) & load4(_ONE_LANE, 4 * b)
    store4(s, OPEN, load4(s, OPEN) ^ bv)
    dirty = s[MARK] | (1 << (3 * d))
    for e in range(9):  # the cell leaves every other digit
        w = load4(s, 4 * e)
        store4(s, 4 * e, w & ~bv)
        dirty |= np.int64(any4(w & bv) != 0) << (3 * e)
    _claim(s, d, b, bit, bv)
    s[MARK] = dirty
    return True


@njit(cache=True, inline="always", error_model="numpy")
def _claim(s, d, b, bit, bv):
    """Digit ``d``'s words take the cell ``bit`` of band ``b`` (``bv``: that bit in lane ``b``): the cell's
    row, box and column lose the digit, the cell keeps it."""
    j = 4 * d
    store4(s, j, (load4(s, j) & load4(KEEP, 4 * (27 * b + lowest_bit(bit)))) | bv)


@njit(cache=True, inline="always", error_model="numpy")
def _segments(w):
    """The row-segments of a band word that hold a place: bit ``3 * (3 * row + box)``. On an int or on lanes."""
    return (w | (w >> 1) | (w >> 2)) & _SEG


@njit(cache=True, inline="always", error_model="numpy")
def _columns(w):
    """The columns of a band word that hold a place (its three rows ORed): bit ``column``. On an int or on
    lanes."""
    return (w | (w >> 9) | (w >> 18)) & 0x1FF


@njit(cache=True, inline="always", error_model="numpy")
def _shapes(s, words):
    """Band shapes of the digits with a changed word (any bit of ``3*d .. 3*d+2`` in ``words``), stack shapes too.

    Returns the mask of the words that shrank, or -1 on a contradiction."""
    shrunk = 0
    words &= 0x7FFFFFF
    while words:  # the changed digits only, by bit scan
        d = lowest_bit(words) // 3
        i = 3 * d
        words &= ~(7 << i)
        w = load4(s, 4 * d)
        # Band shapes: m has bit 3 * (3 * row + box) where the row-segment holds a place; r1 / r2 put the next /
        # next-but-one box's bit of the same row there, and the row shifts below do the same for rows, so a
        # segment stays when the other two rows can take the other two boxes one way or the other.
        m = _segments(w)
        r1 = ((m >> 3) & 0x241209) | ((m << 6) & 0x1008040)
        r2 = ((m >> 6) & 0x40201) | ((m << 3) & 0x1209048)
        sup = m & (
            (((r1 >> 9) | (r1 << 18)) & ((r2 >> 18) | (r2 << 9)))
            | (((r2 >> 9) | (r2 << 18)) & ((r1 >> 18) | (r1 << 9)))
        )
        if zero_lanes(sup | make4(0, 0, 0, 1)):
            return -1
        v = w & (sup | (sup << 1) | (sup << 2))
        # Stack shapes alike on the column folds (bit 3 * stack + column): columns rotated inside each stack, the
        # other two bands rotated in from the other lanes.
        c = _columns(v)
        q1 = ((c >> 1) & 0o333) | ((c << 2) & 0o444)
        q2 = ((c >> 2) & 0o111) | ((c << 1) & 0o666)
        t = c & ((rot1(q1) & rot2(q2)) | (rot1(q2) & rot2(q1)))
        if any4(((t | (t >> 1) | (t >> 2)) & 0o111 ^ 0o111) & make4(-1, -1, -1, 0)):
            return -1
        v &= t | (t << 9) | (t << 18)
        store4(s, 4 * d, v)  # branch-free: whether a word shrank is not predictable
        shrunk |= diff_lanes(v, w) << i
    return shrunk


_SEG = 0x1249249  # bit 3j of a band word: the first cell of segment j (row j // 3, box j % 3)
_LANE = 0x1C0E07  # bits 9r + b (r, b in 0..2): one lane per row and band in the mini-row layout


#: A digit's column fold of a band (bit ``3 * stack + c``: column ``3 * stack + c``) spread to bit
#: ``9 * c + stack``, the mini-column layout of :func:`_minilines`.
_TCOL = np.array([sum(1 << (9 * (j % 3) + j // 3) for j in range(9) if f >> j & 1) for f in range(512)], dtype=np.int64)
#: Three bits ``t`` (stacks) spread to bits ``3 * t`` (the first column of each stack).
_S3 = np.array([sum(1 << (3 * t) for t in range(3) if v >> t & 1) for v in range(8)], dtype=np.int64)
#: In one lane of :func:`_triads`' counts (one band): its mini-rows and, from bit 32, its mini-columns.
_LINES4 = _SEG | (0x1FF << 32)
_LANES = _LANE | (_LANE << 32)
_NINE = 0x1FF | (0x1FF << 32)


@njit(cache=True, inline="always", error_model="numpy")
def _minilines(s, d):
    """Digit ``d``'s mini-rows and mini-columns in one word, laid out alike so one set of shifts serves both.

    Bits 0..26: the mini-row of row ``r``, box ``k``, band ``b`` at ``9 * r + 3 * k + b``; bits 32..58: the
    mini-column of column ``3 * t + c`` in band ``b`` at ``32 + 9 * c + 3 * b + t``. In both halves a line (a
    row of a band, a column) is three bits 3 apart and a box's three mini-lines are 9 apart."""
    w0 = s[4 * d]
    w1 = s[4 * d + 1]
    w2 = s[4 * d + 2]
    x = _segments(w0) | (_segments(w1) << 1) | (_segments(w2) << 2)
    y = _TCOL[_columns(w0)] | (_TCOL[_columns(w1)] << 3) | (_TCOL[_columns(w2)] << 6)
    return x | (y << 32)


@njit(cache=True, inline="always", error_model="numpy")
def _locked(z):
    """The mini-lines of ``z`` (as :func:`_minilines`) that are the only one left in their line."""
    a0 = z & _LANES
    a1 = (z >> 3) & _LANES
    a2 = (z >> 6) & _LANES
    one = (a0 ^ a1 ^ a2) & ~(a0 & a1 & a2)
    return (one & a0) | ((one & a1) << 3) | ((one & a2) << 6)


@njit(cache=True, inline="always", error_model="numpy")
def _triads(s):
    """Naked and hidden triads of every mini-row and mini-column, at a fixed point of the other steps.

    A mini-row (three cells of a row in one box) holds exactly three digits. Where only three digits can go
    (naked), each must go there: it leaves the rest of its row and box in the band. Where three digits can go
    nowhere else in their row (hidden), no other digit can go there. Mini-columns alike. The digit counts are
    bit-sliced over all 54 mini-lines at once (four bit planes, one add per digit), as tdoku counts its triads,
    on four lanes: lane ``b`` holds band ``b``'s nine mini-rows (bit ``3 * (3 * row + box)``) and, from bit 32,
    its nine mini-columns (bit ``32 + column``); a mini-column is the only one of its column when the other two
    lanes (rotated in) lack it. The rare second pass that clears works on :func:`_minilines`' one-word layout.

    Returns the mask of the changed words; 0 when nothing changed, and then word ``MARK`` holds the number of
    (digit, mini-row) pairs left in each band and of (digit, mini-column) pairs in each stack (7 bits each, the
    branching score of :func:`_choose_way`); -1 on a contradiction."""
    r0 = splat4(0)
    r1 = splat4(0)
    r2 = splat4(0)
    r3 = splat4(0)
    h0 = splat4(0)
    h1 = splat4(0)
    h2 = splat4(0)
    for d in range(9):  # one lane per band: mini-rows at bit 3 * (3 * row + box), mini-columns at 32 + column
        w = load4(s, 4 * d)
        x = _segments(w)
        y = _columns(w)
        z = x | (y << 32)
        c = r0 & z
        r0 ^= z
        c2 = r1 & c
        r1 ^= c
        r3 |= r2 & c2
        r2 ^= c2
        b1 = rot1(y)
        b2 = rot2(y)
        # the mini-rows alone in their row (x's segments sit where _minilines puts band 0's mini-rows), and
        # the mini-columns alone in their column
        h = _locked(x) | ((y & ~(b1 | b2)) << 32)
        c = h0 & h
        h0 ^= h
        h2 |= h1 & c
        h1 ^= c
    if any4(~(r2 | r3) & ~(r0 & r1) & make4(_LINES4, _LINES4, _LINES4, 0)):
        return -1  # a mini-row or mini-column where fewer than three digits can go
    t3v = r0 & r1 & ~(r2 | r3)
    q3v = h0 & h1 & ~h2
    t3 = 0
    q3 = 0
    if any4(t3v ^ q3v):  # to the one-word layout of _minilines, for the second pass
        for b in range(3):
            v = lane(t3v, b)
            t3 |= ((v & _SEG) << b) | (_TCOL[(v >> 32) & 0x1FF] << (32 + 3 * b))
            v = lane(q3v, b)
            q3 |= ((v & _SEG) << b) | (_TCOL[(v >> 32) & 0x1FF] << (32 + 3 * b))
    changed = 0
    if t3 != q3:  # a mini-line in both (three digits, all locked there) has nothing to clear
        for d in range(9):
            i = 4 * d
            z = _minilines(s, d)
            lk = z & t3
            t = (lk | (lk >> 3) | (lk >> 6)) & _LANES
            t2 = (lk | (lk >> 9) | (lk >> 18)) & _NINE
            e = (((t | (t << 3) | (t << 6) | t2 | (t2 << 9) | (t2 << 18)) & ~lk) | (q3 & ~_locked(z))) & z
            if e:
                for b in range(3):
                    v = (e >> (32 + 3 * b)) & _LANE
                    cols = _S3[v & 7] | (_S3[(v >> 9) & 7] << 1) | (_S3[v >> 18] << 2)
                    m = ((((e >> b) & _SEG) * 7) | (cols * 0x40201)) & s[OPEN + b]
                    if s[i + b] & m:
                        s[i + b] &= ~m
                        changed |= 1 << (3 * d + b)
    if changed:
        return changed
    score = 0
    cols = 0
    for k in range(4):
        v = r0 if k == 0 else r1 if k == 1 else r2 if k == 2 else r3
        l0 = lane(v, 0)
        l1 = lane(v, 1)
        l2 = lane(v, 2)
        score += (popcount(l0 & _SEG) + (popcount(l1 & _SEG) << 7) + (popcount(l2 & _SEG) << 14)) << k
        p = ((l0 >> 32) & 0x1FF) | (((l1 >> 32) & 0x1FF) << 9) | (((l2 >> 32) & 0x1FF) << 18)
        cols += (
            popcount(p & 0x1C0E07) + (popcount(p & (0x1C0E07 << 3)) << 7) + (popcount(p & (0x1C0E07 << 6)) << 14)
        ) << k
    score |= cols << 21
    s[MARK] = score
    return 0


@njit(cache=True, inline="always", error_model="numpy")
def _alone_in_row(x):
    """The bits of each lane's three 9-bit rows that are alone in their row: the rows spread into 16-bit fields,
    :func:`sudokit.lanes.single16`, and gathered back."""
    r = single16((x & 0x1FF) | ((x << 7) & (0x1FF << 16)) | ((x << 14) & (0x1FF << 32)))
    return (r & 0x1FF) | ((r >> 7) & (0x1FF << 9)) | ((r >> 14) & (0x1FF << 18))


@njit(cache=True, inline="always", error_model="numpy")
def _alone_in_box(o):
    """The bits of each lane's band alone in their box, read off the row-segments: a box whose places lie in one
    row-segment only, and that segment holds one place."""
    o1 = o >> 1
    o2 = o >> 2
    seg = _segments(o)  # the row-segments with a place: bit 3 * (3 * row + box)
    two = ((o & (o1 | o2)) | (o1 & o2)) & _SEG  # ... with two or three
    r0 = seg & 0x49  # each row's segments at bit 3 * box
    r1 = (seg >> 9) & 0x49
    r2 = (seg >> 18) & 0x49
    one = (r0 ^ r1 ^ r2) & ~(r0 & r1 & r2)  # boxes with places in one row only
    good = one & ~(two | (two >> 9) | (two >> 18))
    g = good | (good << 9) | (good << 18)
    return o & (g | (g << 1) | (g << 2))


@njit(cache=True, error_model="numpy")
def _propagate(s):
    """Naked singles, then hidden singles, then band/stack shapes, to a fixed point.

    Each step runs only when the cheaper ones before it found nothing, and only on the words changed since it
    last ran (word ``MARK`` collects the changes). Returns False on a contradiction."""
    hid = 0
    shp = 0
    while True:
        if s[OPEN] | s[OPEN + 1] | s[OPEN + 2] == 0:
            return True
        todo = s[MARK]
        s[MARK] = 0
        hid |= todo
        shp |= todo
        found = False
        # Naked singles (and cells left without a candidate), the three bands at once (one lane each).
        u3 = load4(s, OPEN)
        once = splat4(0)
        twice = splat4(0)
        p0 = splat4(0)
        p1 = splat4(0)
        p2 = splat4(0)
        p3 = splat4(0)
        for d in range(9):
            m = load4(s, 4 * d)
            twice |= once & m
            once |= m
            if d & 1:
                p0 |= m
            if d & 2:
                p1 |= m
            if d & 4:
                p2 |= m
            if d & 8:
                p3 |= m
        if any4(u3 & ~once):
            return False
        ns3 = u3 & ~twice
        if any4(ns3):
            placed = 0
            for b in range(3):
                ns = lane(ns3, b)
                if ns == 0:
                    continue
                q0 = lane(p0, b)
                q1 = lane(p1, b)
                q2 = lane(p2, b)
                q3 = lane(p3, b)
                one = load4(_ONE_LANE, 4 * b)
                while ns:
                    bit = ns & -ns
                    ns ^= bit
                    d = (q0 & bit != 0) + 2 * (q1 & bit != 0) + 4 * (q2 & bit != 0) + 8 * (q3 & bit != 0)
                    j = 4 * d
                    if s[j + b] & bit == 0:
                        return False  # a peer took the digit earlier in this pass
                    _claim(s, d, b, bit, splat4(bit) & one)  # the cell's only candidate: no other digit changes
                    placed |= 1 << (3 * d)
            store4(s, OPEN, u3 & ~ns3)  # every single placed: the open cells and the marks written once
            s[MARK] = placed
            found = True
        if found:
            continue
        # Hidden singles of the digits whose words changed, on their open places only (a placed digit's row, box
        # and column have none): the rows, boxes and columns of all three bands in one vector pass per digit.
        todo = hid & 0x7FFFFFF
        hid = 0
        while todo:  # the changed digits only, by bit scan (a test per digit mispredicted)
            d = lowest_bit(todo) // 3
            todo &= ~(7 << (3 * d))
            w = load4(s, 4 * d)
            if any4(_columns(w)) != 0x1FF:
                return False  # a column without a place for d
            o = w & load4(s, OPEN)
            hits = _alone_in_row(o) | _alone_in_box(o)
            # columns: counted in each band, then across the bands (lanes rotated)
            a0 = o & 0x1FF
            a1 = (o >> 9) & 0x1FF
            a2 = (o >> 18) & 0x1FF
            on = a0 | a1 | a2
            tw = (a0 & a1) | (a2 & (a0 | a1))
            o1 = rot1(on)
            o2 = rot2(on)
            tw = tw | rot1(tw) | rot2(tw) | (on & (o1 | o2)) | (o1 & o2)
            sc = (on | o1 | o2) & ~tw
            hits |= o & (sc | (sc << 9) | (sc << 18))
            if any4(hits):
                for b in range(3):
                    x1 = lane(hits, b)
                    while x1:
                        bit = x1 & -x1
                        x1 ^= bit
                        if not _place(s, d, b, bit):
                            return False
                found = True
        if found:
            continue
        # No singles left: shapes (locked candidates and more) of the words changed since they last ran.
        shrunk = _shapes(s, shp)
        shp = 0
        if shrunk < 0:
            return False
        if shrunk == 0:
            # A fixed point of the cheaper steps: the triads (which leave the branching score in word MARK).
            shrunk = _triads(s)
            if shrunk < 0:
                return False
            if shrunk == 0:
                return True
        s[MARK] = shrunk


@njit(cache=True, inline="always", error_model="numpy")
def _choose(s):
    """The cell to branch on: the open cell with two candidates that has the most open peers (the first such
    in cell order on a tie), else the first open cell with the fewest candidates.

    A bivalue cell among many open cells constrains the most when placed, so each branch propagates further
    (measured: guesses/puzzle 11.7 -> 7.0 on top1465, 70 -> 43 on forum_hardest). Returns
    ``(band, bit, digit mask)``."""
    best_b = -1
    best_bit = 0
    best_score = -1
    for b in range(3):
        u = s[OPEN + b]
        if u == 0:
            continue
        once = 0
        twice = 0
        thrice = 0
        for d in range(9):
            m = s[4 * d + b]
            thrice |= twice & m
            twice |= once & m
            once |= m
        bv = twice & ~thrice & u
        if bv == 0:
            continue
        u1 = s[OPEN + (b + 1) % 3]
        u2 = s[OPEN + (b + 2) % 3]
        u12 = u1 | (u2 << 27)
        while bv:
            bit = bv & -bv
            bv ^= bit
            i = lowest_bit(bit)
            col = _COL[i]
            score = popcount(u & _BAND_PEERS[i]) + popcount(u12 & (col | (col << 27)))
            if score > best_score:
                best_score = score
                best_b = b
                best_bit = bit
    if best_b >= 0:
        rem = 0
        for d in range(9):
            if s[4 * d + best_b] & best_bit:
                rem |= 1 << d
        return best_b, best_bit, rem
    best_b = -1
    best_bit = 0
    best_rem = 0
    best_n = 99
    for b in range(3):
        u = s[OPEN + b]
        while u:
            bit = u & -u
            u ^= bit
            rem = 0
            cnt = 0
            for d in range(9):
                if s[4 * d + b] & bit:
                    rem |= 1 << d
                    cnt += 1
            if cnt < best_n:
                best_n = cnt
                best_b = b
                best_bit = bit
                best_rem = rem
    return best_b, best_bit, best_rem


@njit(cache=True, inline="always", error_model="numpy")
def _choose_way(s, shrink):
    """tdoku's branch: the band or stack with the fewest (digit, mini-row) pairs left (the score :func:`_triads`
    left in word ``MARK``) among those not fixed, and in it a digit with two ways (else three, else the fewest).
    Returns ``(code, digit, ways)``: code 3 + band or 6 + stack; ``(-1, 0, 0)`` when every band and stack is
    fixed (each digit in three mini-rows)."""
    score = s[MARK]
    best = 999
    code = -1
    for c in range(6):
        t = (score >> (7 * c)) & 127
        if 27 < t < best:
            best = t
            code = c + 3
    if code < 0:
        return -1, 0, 0
    best_d = 0
    best_n = 99
    best_ways = 0
    for d in range(9):
        i = 4 * d
        if code < 6:
            w = s[i + code - 3]
            ways = _WAYS[shrink[w & 0x1FF] | (shrink[(w >> 9) & 0x1FF] << 3) | (shrink[w >> 18] << 6)]
        else:
            sh = 3 * (code - 6)
            w0 = s[i]
            w1 = s[i + 1]
            w2 = s[i + 2]
            c0 = ((w0 | (w0 >> 9) | (w0 >> 18)) >> sh) & 7
            c1 = ((w1 | (w1 >> 9) | (w1 >> 18)) >> sh) & 7
            c2 = ((w2 | (w2 >> 9) | (w2 >> 18)) >> sh) & 7
            ways = _WAYS[c0 | (c1 << 3) | (c2 << 6)]
        n = popcount(ways)
        if n == 2:
            return code, d, ways
        if 1 < n < best_n:
            best_n = n
            best_d = d
            best_ways = ways
    if best_ways == 0:  # cannot happen at a fixed point (a unit not fixed has a digit with two ways): a cell then
        return -1, 0, 0
    return code, best_d, best_ways


@njit(cache=True, inline="always", error_model="numpy")
def _follow(s, code, d, k, expand):
    """Restrict digit ``d`` to way ``k`` of band or stack ``code`` (as :func:`_choose_way` returns it)."""
    way = _WAY[k]
    i = 4 * d
    if code < 6:
        b = code - 3
        one = load4(_ONE_LANE, 4 * b)
        keep = (splat4(expand[way]) & one) | ~one
    else:
        sh = 3 * (code - 6)
        other = ~(0x1C0E07 << sh)
        keep = make4(
            other | ((way & 7) * 0x40201) << sh,
            other | (((way >> 3) & 7) * 0x40201) << sh,
            other | ((way >> 6) * 0x40201) << sh,
            0,
        )
    store4(s, i, load4(s, i) & keep)  # as a vector: the next step loads it as one
    s[MARK] |= 1 << (3 * d)


#: Eight bits spread to eight bytes: bit ``i`` of the index is byte ``i`` (0 or 1).
_SPREAD = np.array([sum(1 << (8 * i) for i in range(8) if x >> i & 1) for x in range(256)], dtype=np.int64)


@njit(cache=True, inline="always", error_model="numpy")
def _cells(v):
    """The three band words of ``v`` as 81 bits in two words: cells 0..63 and cells 64..80."""
    return lane(v, 0) | (lane(v, 1) << 27) | (lane(v, 2) << 54), lane(v, 2) >> 10


@njit(cache=True, inline="always", error_model="numpy")
def _bytes(w0, w1, w2, w3, sh):
    """Eight cells from bit ``sh`` on as eight bytes, each the value whose bit ``k`` is in ``wk``."""
    return (
        _SPREAD[(w0 >> sh) & 0xFF]
        | (_SPREAD[(w1 >> sh) & 0xFF] << 1)
        | (_SPREAD[(w2 >> sh) & 0xFF] << 2)
        | (_SPREAD[(w3 >> sh) & 0xFF] << 3)
    )


@njit(cache=True, inline="always", error_model="numpy")
def _write(s, solution):
    """Write the grid of a state with no open cell (each digit word holds its placed cells) to ``solution``.

    The values are built as four bit planes (bit ``k`` of ``d + 1``: the words of the digits that have it,
    ORed, all bands at once) and spread to bytes eight cells at a time: no bit scan and no branch per cell."""
    m2 = load4(s, 8)
    m4 = load4(s, 16)
    m56 = load4(s, 20) | load4(s, 24)
    m8 = load4(s, 32)
    a0, b0 = _cells(load4(s, 0) | m2 | m4 | load4(s, 24) | m8)  # values 1, 3, 5, 7, 9
    a1, b1 = _cells(load4(s, 4) | m2 | m56)  # 2, 3, 6, 7
    a2, b2 = _cells(load4(s, 12) | m4 | m56)  # 4, 5, 6, 7
    a3, b3 = _cells(load4(s, 28) | m8)  # 8, 9
    for j in range(10):
        x = _bytes(a0, a1, a2, a3, 8 * j) if j < 8 else _bytes(b0, b1, b2, b3, 8 * j - 64)
        for i in range(8):  # LLVM merges the eight byte stores into one
            solution[8 * j + i] = (x >> (8 * i)) & 0xFF
    solution[80] = _bytes(b0, b1, b2, b3, 16) & 0xFF


#: The cells of box ``u`` at ``9 * u .. 9 * u + 8`` (unsigned, so that numba indexes with them unchecked).
_BOX_CELLS = np.array(
    [27 * (u // 3) + 3 * (u % 3) + 9 * (j // 3) + j % 3 for u in range(9) for j in range(9)], dtype=np.uint8
)


@njit(cache=True, inline="always", error_model="numpy")
def check9(values, solution):
    """True when ``solution`` (81 digits) keeps every given of ``values`` and holds each digit 1..9 once in
    every row, column and box: the rule check of every answer, read off the written grid, not the bitboards."""
    lost = 0  # branch-free: a mispredicted branch per given cost more than the whole comparison
    for c in range(81):
        v = values[c]
        lost |= np.int64(v != 0) & np.int64(v != solution[c])
    if lost:
        return False
    for u in range(9):
        row = 0
        col = 0
        box = 0
        for j in range(9):
            row |= np.int64(1) << np.int64(solution[9 * u + j])
            col |= np.int64(1) << np.int64(solution[9 * j + u])
            box |= np.int64(1) << np.int64(solution[_BOX_CELLS[9 * u + j]])
        if row != 0x3FE or col != 0x3FE or box != 0x3FE:  # a 0 or a digit over 9 sets a bit outside
            return False
    return True


@njit(cache=True, inline="always", error_model="numpy")
def _row_of(s, d, col):
    """The row (0..8) of digit ``d`` in column ``col`` of a state with no open cell."""
    rows = 0
    for b in range(3):
        x = (s[4 * d + b] >> col) & 0x40201  # the column's cells in band b: bits 0, 9, 18
        rows |= ((x | (x >> 8) | (x >> 16)) & 7) << (3 * b)
    return lowest_bit(rows)


@njit(cache=True, error_model="numpy")
def _deadly(s, values, solution, given, st_band, st_bit, st_rem, depth):
    """True when the solution just written (``s``, at ``depth``; ``given``: the given cells per band, words 27..29)
    has a deadly rectangle at one of the choice points still to be tried: for the (band or stack, digit) chosen
    there, two of the unit's rows (columns) where the digit and another hold four cells crosswise, none of them
    a given. Swapping the two digits in those cells gives a second solution: each row, column and box keeps its
    digits (the two rows lie in one band, so the four cells in two boxes, two in each; columns alike).

    A second solution found this way differs from the first in the way of that (unit, digit) alone, so it lies
    behind a choice still to be tried: only those are looked at, the deepest first."""
    for lv in range(depth - 1, -1, -1):
        code = st_band[lv]
        if st_rem[lv] == 0 or code < 3:  # nothing left to try there, or a cell branch
            continue
        d = st_bit[lv]
        if code < 6:  # rows 0..2 of band k: the digit at columns c0, c1, c2
            k = code - 3
            w = s[4 * d + k]
            m0 = w & 0x1FF
            m1 = (w >> 9) & 0x1FF
            m2 = w >> 18
            c0 = lowest_bit(m0)
            c1 = lowest_bit(m1)
            c2 = lowest_bit(m2)
            g = given[27 + k]
            g0 = g & 0x1FF
            g1 = (g >> 9) & 0x1FF
            g2 = g >> 18
            o = 27 * k
            found = (
                (np.int64(solution[o + c1] == solution[o + 9 + c0]) & np.int64((g0 | g1) & (m0 | m1) == 0))
                | (np.int64(solution[o + c2] == solution[o + 18 + c0]) & np.int64((g0 | g2) & (m0 | m2) == 0))
                | (np.int64(solution[o + 9 + c2] == solution[o + 18 + c1]) & np.int64((g1 | g2) & (m1 | m2) == 0))
            )
        else:  # columns c..c+2 of stack t: the digit at rows r0, r1, r2 (times 9)
            c = 3 * (code - 6)
            r0 = 9 * _row_of(s, d, c)
            r1 = 9 * _row_of(s, d, c + 1)
            r2 = 9 * _row_of(s, d, c + 2)
            found = (
                (
                    np.int64(solution[r0 + c + 1] == solution[r1 + c])
                    & np.int64(values[r0 + c] | values[r0 + c + 1] | values[r1 + c] | values[r1 + c + 1] == 0)
                )
                | (
                    np.int64(solution[r0 + c + 2] == solution[r2 + c])
                    & np.int64(values[r0 + c] | values[r0 + c + 2] | values[r2 + c] | values[r2 + c + 2] == 0)
                )
                | (
                    np.int64(solution[r1 + c + 2] == solution[r2 + c + 1])
                    & np.int64(values[r1 + c + 1] | values[r1 + c + 2] | values[r2 + c + 1] | values[r2 + c + 2] == 0)
                )
            )
        if found:
            return True
    return False


@njit(cache=True, error_model="numpy")
def search9(values, limit, budget, solution, stats, st, st_band, st_bit, st_rem, shrink, expand):
    """Solve/count one 9x9 puzzle (``values`` (81,) uint8, 0 = empty). Returns ``(status, count)``; the status
    is :data:`BROKEN` if the first solution written to ``solution`` failed :func:`check9` (a kernel bug).

    ``st`` is ``(83, STATE_WORDS)`` int64 scratch (one state per level, the last row for the givens);
    ``st_band``/``st_bit``/``st_rem`` are ``(82,)``. ``budget``: time allowed in ticks, 0 for no limit (as in
    :func:`sudokit.engine.kernel.search`).
    """
    t0 = ticks() if budget > 0 else 0
    st = _borrow(st)  # its row views then cost no atomic reference counting either
    s = st[0]
    shrink = _borrow(shrink)
    expand = _borrow(expand)
    given = st[st.shape[0] - 1]  # scratch row: the givens of each digit, per band
    full = (1 << 27) - 1
    for i in range(27):
        given[i] = 0
    for i in range(STATE_WORDS):
        s[i] = full if i % 4 != 3 and i < MARK else 0
    s[MARK] = (1 << 27) - 1
    stats[0] = 0
    stats[1] = 0
    stats[2] = 0
    # Givens in bulk: each digit keeps only the cells that none of its givens sees (its givens included).
    # The given cells first, as one bit mask per band, without a branch per cell (a mispredicted branch per
    # given cost more than the rest of the set-up on puzzles with many givens); then each given by bit scan.
    over = 0
    for b in range(3):
        at = min(27 * b, 49)  # 32 bytes from here hold the band and stay inside the 81
        nonzero, big = byte_masks(values, at, 9)
        m = (nonzero >> (27 * b - at)) & full
        over |= big
        s[OPEN + b] = full & ~m
        given[27 + b] = m
    if over:
        return INVALID, 0
    for b in range(3):
        m = given[27 + b]
        while m:
            j = lowest_bit(m)
            m &= m - 1
            c = 27 * b + j
            d = values[c] - 1
            given[3 * d + b] |= 1 << j
            store4(s, 4 * d, load4(s, 4 * d) & load4(KEEP, 4 * c))
    for d in range(9):
        for b in range(3):
            g = given[3 * d + b]
            i = 4 * d + b
            if g & ~s[i]:  # a given of d seen by another given of d
                return INVALID, 0
            s[i] &= s[OPEN + b] | g
    if not _propagate(s):
        stats[2] = 1
        return NO_SOLUTION, 0
    count = 0
    guesses = 0
    nodes = 0
    backtracks = 0
    depth = 0
    while True:
        nodes += 1
        if budget > 0 and nodes % CLOCK_EVERY == 0 and ticks() - t0 > budget:
            finish(count, guesses, nodes, backtracks, stats)
            return TIMEOUT, count
        cur = st[depth]
        if cur[OPEN] | cur[OPEN + 1] | cur[OPEN + 2] == 0:
            count += 1
            if count == 1:
                _write(cur, solution)
                if not check9(values, solution):  # the rule check of the answer, fused into the last step
                    finish(count, guesses, nodes, backtracks, stats)
                    return BROKEN, count
                if limit == 2 and depth > 0 and _deadly(cur, values, solution, given, st_band, st_bit, st_rem, depth):
                    count = 2  # a second solution, shown without searching for it
            if count >= limit:
                break
            depth -= 1
        else:
            b, bit, rem = _choose_way(cur, shrink)
            if b < 0:  # every band and stack fixed (propagation then leaves no open cell): a cell, for safety
                b, bit, rem = _choose(cur)
            st_band[depth] = b
            st_bit[depth] = bit
            st_rem[depth] = rem
        while depth >= 0:
            rem = st_rem[depth]
            if rem == 0:
                depth -= 1
                continue
            low = rem & -rem
            rem ^= low
            st_rem[depth] = rem
            if rem != 0:  # a guess: work on a copy one level up, this level is needed again
                guesses += 1
                src = st[depth]
                dst = st[depth + 1]
                for i in range(0, MARK, 4):  # as vectors: the next step loads them as vectors
                    store4(dst, i, load4(src, i))
                level = depth + 1
            else:  # the last alternative: this level is not needed again, so work on it in place
                dst = st[depth]
                level = depth
            dst[MARK] = 0
            code = st_band[depth]
            if code < 3:
                ok = _place(dst, lowest_bit(low), code, st_bit[depth])
            else:
                _follow(dst, code, st_bit[depth], lowest_bit(low), expand)
                ok = True
            if ok and _propagate(dst):
                depth = level
                break
            backtracks += 1
        if depth < 0:
            break
    return finish(count, guesses, nodes, backtracks, stats)


@njit(cache=True, error_model="numpy")
def search9_rows(puzzles, start, stop, limit, budget, solutions, status, counts, stats, shrink, expand):
    """:func:`search9` on rows ``start..stop`` of ``puzzles`` with one set of scratch arrays. ``stats`` rows
    are ``[guesses, nodes, backtracks]``, plus the puzzle's time in :func:`sudokit.engine.clock.ticks` when
    ``stats`` has a fourth column.

    Every array goes to :func:`search9` borrowed (see :func:`_borrow`): measured 8% faster on easy puzzles."""
    st_owner = np.zeros((83, STATE_WORDS), dtype=np.int64)
    stack_owner = np.zeros((3, 82), dtype=np.int64)
    st = _borrow(st_owner)
    st_band = _borrow(stack_owner[0])
    st_bit = _borrow(stack_owner[1])
    st_rem = _borrow(stack_owner[2])
    puzzles = _borrow(puzzles)  # the arguments are kept alive by the caller
    solutions = _borrow(solutions)
    stats = _borrow(stats)
    tables = (_borrow(shrink), _borrow(expand))
    timed = stats.shape[1] > 3  # a fourth column asks for each puzzle's time in ticks (engine.clock)
    for i in range(start, stop):
        t0 = ticks() if timed else 0
        stt, cnt = search9(puzzles[i], limit, budget, solutions[i], stats[i], st, st_band, st_bit, st_rem, *tables)
        status[i] = stt
        counts[i] = cnt
        if timed:
            stats[i, 3] = ticks() - t0
    # numba frees an array after its last use: these uses keep the owners of the borrowed scratch alive to here.
    st_owner[0, 0] = stack_owner[0, 0]


#: Layout of :func:`count9`'s one scratch array: the search states, the choice points, the statistics (three
#: words of slack let the states start on a 32-byte boundary, as numba's own arrays do).
_STATES = 83 * STATE_WORDS
_STACK = _STATES + 3
_STATS = _STACK + 3 * 82
WORK_SIZE = _STATS + 3


@njit(cache=True, error_model="numpy")
def count9(values, limit, budget, work, solution):
    """:func:`search9` behind a short argument list, for callers that count one puzzle at a time (the
    generator, the rater): one int64 scratch array of :data:`WORK_SIZE` (statistics in its last three
    words), the tables read as compiled-in constants. Each array argument costs the dispatcher a type check,
    so this call is several times cheaper than :func:`search9`'s fourteen arguments. Returns ``(-1, 0)``
    without searching when a value is over 9 (the caller names it)."""
    for c in range(81):
        if values[c] > 9:
            return -1, 0
    w = _borrow(work)
    at = (-(w.ctypes.data >> 3)) & 3  # a state's vectors then never straddle a cache line
    st = w[at : at + _STATES].reshape((83, STATE_WORDS))
    return search9(
        values,
        limit,
        budget,
        solution,
        w[_STATS:WORK_SIZE],
        st,
        w[_STACK : _STACK + 82],
        w[_STACK + 82 : _STACK + 164],
        w[_STACK + 164 : _STATS],
        SHRINK,
        EXPAND,
    )


def table_args() -> tuple:
    """The lookup tables, in the order ``search9`` and ``search9_rows`` take them. ``_place`` and ``_propagate``
    read the module's tables as compiled-in constants instead (measured 1.04-1.11x: each array argument is seven
    words pushed per call)."""
    return (SHRINK, EXPAND)
