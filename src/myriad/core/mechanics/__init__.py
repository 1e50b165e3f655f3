"""The mechanics library: named, parameterised rules that games invoke as data.

* ``movement``  step, slide, leap, pawn moves (double step, en passant), castling,
  promotion in zones, attack detection for royal pieces;
* ``jumps``     jump captures chained over several parts (men and flying kings),
  compulsory and maximum capture, promotion during or after a capture;
* ``placement`` placing stones, gravity drops, n-in-a-row goals, line flips, passing;
* ``sowing``    mancala sowing with store and capture rules (Kalah);
* ``capture_sowing`` mancala sowing that captures in the opponent's row: by count or
  parity, backward chains, grand slams, feeding, claimed houses (Oware, Toguz Kumalak);
* ``honour``    makruk's counting rules (board's and pieces' honour);
* ``surround``  Go's capture: chains, liberties, captures, suicide, area, ladders.

Each mechanic is compiled once against a topology into flat integer tables, then run by a
plain function over the cells of a state.
"""
