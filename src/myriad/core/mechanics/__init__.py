"""The mechanics library: named, parameterised rules that games invoke as data.

* ``movement``  step, slide, leap, pawn moves (double step, en passant), castling,
  promotion in zones, attack detection for royal pieces;
* ``jumps``     jump captures chained over several parts (men and flying kings),
  compulsory and maximum capture (by count or by value), promotion during or after a
  capture, orthogonal captures, removal of captured pieces at once, no turning back;
* ``stacks``    columns of pieces in one cell and jump captures that take the top piece
  under the capturer (Lasca, Bashni);
* ``placement`` placing stones, gravity drops, n-in-a-row goals, line flips, passing;
* ``sowing``    mancala sowing with store and capture rules (Kalah);
* ``capture_sowing`` mancala sowing that captures in the opponent's row: by count or
  parity, backward chains, grand slams, feeding, claimed houses (Oware, Toguz Kumalak);
* ``honour``    makruk's counting rules (board's and pieces' honour);
* ``rank_capture`` who may take whom by rank, with allowed and forbidden pairs, squares
  that strip a piece's rank and a second surface (Jungle; BanQi's ranks fit it);
* ``terrain``   steps onto the squares each piece may enter, leaps across a zone (Jungle's
  water, dens, the lion's and tiger's leap).
* ``surround``  Go's capture: chains, liberties, captures, suicide, area, ladders.

Each mechanic is compiled once against a topology into flat integer tables, then run by a
plain function over the cells of a state.
"""
