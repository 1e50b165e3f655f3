"""Play in the terminal: ``myriad play GAME --first human --second alphabeta``, or one seat
per player with ``--seats human maxn maxn``.

Where chance moves (a die), the program draws the outcome by its probability from a
generator seeded with ``--seed`` and shows it; no seat ever chooses it.  The board is
redrawn after every move.  At a human's turn, type a move in the game's
notation, or ``undo`` (back to your previous turn), ``redo``, ``moves`` (the legal moves),
``position`` (the position text), ``help`` (these commands) or ``quit``.  Text that is not
a move and a move that is not legal are told apart (an illegal move says why where it can).  Bad input gets the reason and a hint, and
the game carries on.  On a terminal, the board and messages are in colour (see
:mod:`myriad.arena.colour`; ``--no-color`` or ``NO_COLOR`` turn it off), the legal moves
are wrapped at its width, and the end is said in words ("White wins by checkmate").
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from myriad.ai import Bot, Limits, make_bot
from myriad.arena import options
from myriad.arena.colour import Palette, wants_colour
from myriad.core.errors import IllegalMoveError, InvalidMoveError, MyriadError
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.user_variants import add_variants_option
from myriad.notation.describe import end_text

HUMAN = "human"

#: The commands a human may type at the prompt, with what each does (``help`` prints them).
COMMANDS = (("MOVE", "play a move in the game's notation (e.g. {example})"),
            ("moves", "list the legal moves"),
            ("undo", "take back moves to your previous turn"),
            ("redo", "play the undone moves again"),
            ("position", "print the position text (to start from it with --position)"),
            ("help", "print this list"),
            ("quit", "leave the game (also exit, q, or end of input)"))


class TerminalGame:
    """A game in progress with an undo/redo history; seats are ``None`` for a human."""

    def __init__(self, game: Game, seats: list[Bot | None], start: State, movetime: float,
                 read: Callable[[str], str] = input, write: Callable[[str], Any] = print,
                 seed: int = 0, palette: Palette | None = None, width: int | None = None) -> None:
        if len(seats) != game.players:
            raise MyriadError(f"{game.id} has {game.players} players ({', '.join(game.player_names)}): "
                              f"{len(seats)} seats given")
        self.game = game
        self.seats = seats
        #: chance's draws (a die): seeded, so that a game can be played again the same way
        self.rng = random.Random(seed)
        self.states = [start]
        self.notation: list[str] = []
        self.redo_stack: list[tuple[State, str]] = []
        self.movetime = movetime
        self.read = read
        self.write = write
        #: colours (off: text unchanged) and the width the legal moves are wrapped at
        self.palette = palette or Palette(False)
        self.width = width

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    def run(self) -> int:
        """Play until the game ends or a human quits; returns the exit code."""
        game = self.game
        self.show()
        while True:
            outcome = game.outcome(self.state)
            if outcome is not None:
                self.write(self.palette.paint(f"game over: {end_text(game, outcome)} "
                                              f"after {self.moves_played()}", "bold", "green"))
                self.write(f"moves: {' '.join(self.notation)}")
                return 0
            if game.is_chance(self.state):
                self.push(self.chance_move(), "chance")
                self.show()
                continue
            bot = self.seats[self.state.to_move]
            if bot is None:
                if not self.human_turn():
                    return 0
            else:
                self.push(self.bot_move(bot), f"{bot.name}")
            self.show()

    def bot_move(self, bot: Bot) -> Any:
        """The bot's move; a bot that fails or answers an illegal move ends the game with a
        :class:`MyriadError` saying so (e.g. a lone ``book`` bot out of its book)."""
        player = self.state.to_move
        try:
            move = bot.choose(self.game.observe(self.state, player), Limits.of(self.movetime)).move
        except Exception as err:  # noqa: BLE001 - any failure of the bot ends the game, told in one line
            raise MyriadError(f"{bot.name} ({self.game.player_names[player]}) found no move: {err}") from None
        if move not in self.game.legal_moves(self.state):
            raise MyriadError(f"{bot.name} ({self.game.player_names[player]}) answered an illegal move")
        return move

    def chance_move(self) -> Any:
        """Chance's move: an outcome drawn by its probability."""
        outcomes = self.game.chance_outcomes(self.state)
        return self.rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]

    def human_to_move(self) -> bool:
        """Whether a human chooses the next move (not a bot, not chance)."""
        return not self.game.is_chance(self.state) and self.seats[self.state.to_move] is None

    def human_turn(self) -> bool:
        """Read commands until a move is played; False when the human quits."""
        game = self.game
        while True:
            try:
                text = self.read(f"{game.player_names[self.state.to_move]} to move> ").strip()
            except EOFError:
                self.write("")
                return False
            except UnicodeDecodeError:
                self.write("not understood: the line is not text in the terminal's encoding")
                continue
            if text in ("quit", "exit", "q"):
                return False
            if text == "help":
                self.write(self.help_text())
            elif text == "moves":
                self.write(self.moves_text())
            elif text == "position":
                self.write(game.format_position(self.seen()))
            elif text == "undo":
                if self.undo():
                    return True
                self.write("nothing to undo")
            elif text == "redo":
                if self.redo():
                    return True
                self.write("nothing to redo")
            elif text:
                try:
                    move = game.parse_move(self.state, text)
                except IllegalMoveError as err:
                    self.write(self.palette.paint(f"not played: illegal: {err}", "yellow"))
                    continue
                except InvalidMoveError as err:
                    self.write(self.palette.paint(f"not played: not a move: {err} (type 'moves' for the legal "
                                                  "moves, 'help' for commands)", "red"))
                    continue
                except MyriadError as err:
                    self.write(self.palette.paint(f"not played: {err}", "red"))
                    continue
                self.push(move, "")
                return True

    def push(self, move: Any, who: str) -> None:
        """Play ``move`` (legal) and remember it."""
        text = self.game.format_move(self.state, move)
        shown = self.shown_move(self.state, text)
        self.states.append(self.game.play(self.state, move))
        self.notation.append(text)
        self.redo_stack.clear()
        if who == "chance":
            self.write(f"chance: {self.palette.paint(shown, 'bold')}")
        elif who:
            self.write(f"{who} plays {self.palette.paint(shown, 'bold')}")

    def undo(self) -> bool:
        """Take moves back until it is a human's turn again (at least one move; chance's
        moves are taken back with the rest)."""
        if len(self.states) == 1:
            return False
        while len(self.states) > 1:
            self.redo_stack.append((self.states.pop(), self.notation.pop()))
            if self.human_to_move():
                break
        return True

    def redo(self) -> bool:
        """Replay undone moves up to the next human turn."""
        if not self.redo_stack:
            return False
        while self.redo_stack:
            state, text = self.redo_stack.pop()
            self.states.append(state)
            self.notation.append(text)
            if self.human_to_move():
                break
        return True

    def help_text(self) -> str:
        """The commands of the prompt, one a line."""
        legal = self.game.legal_moves(self.state)
        example = self.game.format_move(self.state, legal[0]) if legal else "a move"
        return "\n".join(f"  {name:<9} {what.format(example=example)}" for name, what in COMMANDS)

    def moves_text(self) -> str:
        """The legal moves, wrapped at word boundaries to the terminal's width (a move is
        never cut, nor broken at its hyphen: ``21-17``)."""
        moves = [self.game.format_move(self.state, m) for m in self.game.legal_moves(self.state)]
        width = self.width or shutil.get_terminal_size((100, 24)).columns
        return textwrap.fill(f"legal moves ({len(moves)}): {' '.join(moves)}", max(20, width), subsequent_indent="  ",
                             break_long_words=False, break_on_hyphens=False)

    def moves_played(self) -> str:
        """How long the game went, in moves as players count them (a move of each player
        is one move; chance's draws are not counted): "1 move", "23 moves"."""
        game = self.game
        plies = sum(1 for before in self.states[:-1] if not game.is_chance(before))
        moves = -(-plies // max(1, game.players))
        return f"{moves} move" + ("" if moves == 1 else "s")

    def viewer(self) -> int | None:
        """Whose view the terminal shows in a game with hidden information: the one human
        seat, or the human to move when several share the terminal; None (everything) when
        only bots play or in a game of perfect information."""
        humans = [p for p, seat in enumerate(self.seats) if seat is None]
        if not self.game.hidden_information or not humans:
            return None
        return humans[0] if len(humans) == 1 or self.state.to_move not in humans else self.state.to_move

    def seen(self) -> State:
        """The current position as the viewer sees it (everything once the game is over)."""
        viewer = self.viewer()
        return self.state if viewer is None else self.game.observe(self.state, viewer)

    def shown_move(self, before: State, text: str) -> str:
        """A move's text as the viewer may see it: ``?`` for another player's move in a game
        with hidden information (the whole list is printed at the end)."""
        viewer = self.viewer()
        return "?" if viewer is not None and before.to_move != viewer else text

    def show(self) -> None:
        """Redraw the board (as the viewer sees it) and whose turn it is."""
        self.write("")
        self.write(self.palette.board(self.game, self.game.render(self.seen())))
        last = self.shown_move(self.states[-2], self.notation[-1]) if self.notation else ""
        self.write(self.palette.paint(f"{self.game.mover_name(self.state)} to move", "bold")
                   + (f"   last: {last}" if last else ""))


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    game = get_game(args.game)
    start = game.parse_position(args.position) if args.position else game.initial_state()
    if args.seats is not None:
        specs = list(args.seats)
        if len(specs) != game.players:
            raise MyriadError(f"--seats: {game.id} has {game.players} players ({', '.join(game.player_names)}), "
                              f"{len(specs)} seats given")
    else:  # the first seat, and --second at every other
        specs = [args.first] + [args.second] * (game.players - 1)
    seats: list[Bot | None] = [None if spec == HUMAN else make_bot(spec, game) for spec in specs]
    palette = Palette(wants_colour(sys.stdout, args.color))
    return TerminalGame(game, seats, start, args.movetime, seed=args.seed, palette=palette).run()


def add_play_command(commands: Any) -> None:
    """Register ``play`` on the command-line parser."""
    play = commands.add_parser("play", help="play in the terminal against a bot or a friend")
    play.add_argument("game", metavar="GAME")
    play.add_argument("--first", default=HUMAN, metavar="human|SPEC", help="who plays first")
    play.add_argument("--second", default="alphabeta", metavar="human|SPEC",
                      help="who plays second (and every later seat)")
    play.add_argument("--seats", nargs="+", metavar="SEAT",
                      help="one seat per player, 'human' or a bot spec, in turn order (instead of --first/--second)")
    play.add_argument("--seed", type=options.count(0, 10**9 - 1), default=0, metavar="K",
                      help="seed of chance's draws (dice)")
    play.add_argument("--position", metavar="TEXT", help="start from this position")
    play.add_argument("--movetime", type=options.seconds(), default=1.0, metavar="S",
                      help="bot seconds per move")
    play.add_argument("--color", "--colour", action=argparse.BooleanOptionalAction, default=None,
                      help="colour the board and messages (default: on a terminal, unless NO_COLOR is set)")
    add_variants_option(play)
    play.set_defaults(run=cmd_play)
