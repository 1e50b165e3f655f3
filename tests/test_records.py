"""Reading real-world records: annotated PGN (comments, NAGs, ``!?``, nested variations,
several games a file) and PDN alike, through ``read_records`` and ``myriad replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from myriad import get_game
from myriad.cli import main
from myriad.notation.records import read_records, replay

# As a chess site or a book exports them: a header, comments, a clock comment, NAGs, move
# annotations, a variation with a variation inside, a second game after the first.
ANNOTATED_PGN = """\
[Event "Casual Game"]
[Site "https://example.org/abc"]
[Date "1858.??.??"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[ECO "C41"]

1. e4 e5 2. Nf3 d6 {This is the Philidor Defence.} 3. d4 Bg4?! $6 { [%clk 0:10:00] }
(3... exd4 4. Nxd4 (4. Qxd4 Nc6 5. Bb5) 4... Nf6)
4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6? 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5! cxb5
11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7! Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ !!
Nxb8 17. Rd8# $1 1-0

[Event "Second"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 ; the Queen's Gambit
c6 $2 (2... e6 3. Nc3) 3. Nf3 1/2-1/2
"""


def test_annotated_pgn_reads_its_moves_and_skips_the_rest() -> None:
    records = read_records(ANNOTATED_PGN)
    assert len(records) == 2
    first, second = records
    assert first.tags["White"] == "Paul Morphy" and first.tags["ECO"] == "C41"
    assert len(first.moves) == 33 and first.moves[:6] == ["e4", "e5", "Nf3", "d6", "d4", "Bg4"]
    assert "Nxb5" in first.moves and first.moves[-1] == "Rd8#"
    assert not any(c in "".join(first.moves) for c in "!?$(){}")
    assert second.moves == ["d4", "d5", "c4", "c6", "Nf3"] and second.tags["Result"] == "1/2-1/2"
    game = get_game("chess")
    final = replay(game, first)[-1]
    outcome = game.outcome(final)
    assert outcome is not None and outcome.winner == 0     # Morphy's mate
    assert len(replay(game, second)) == 6


def test_replay_command_reads_the_annotated_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "opera.pgn"
    path.write_text(ANNOTATED_PGN)
    assert main(["replay", "chess", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Rd8#" in out or "checkmate" in out
    assert main(["replay", "chess", str(path), "--index", "2"]) == 0
    assert "Nf3" in capsys.readouterr().out


PDN = """\
[Event "Example"]
[White "W"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 {a comment} 2. 28x19 14x23! (2... 13x24 3. 37-32) 3. 33-28? 2-0

[Event "Next"]
[Result "1-1"]
1. 31-27 * 
"""


def test_pdn_with_comments_variations_annotations_and_two_games() -> None:
    records = read_records(PDN)
    assert [r.moves for r in records] == [["32-28", "19-23", "28x19", "14x23", "33-28"], ["31-27"]]
    game = get_game("international")
    assert len(replay(game, records[0])) == 6
