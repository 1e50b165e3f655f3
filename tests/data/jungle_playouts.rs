//! Random Jungle games played by netcan/AnimalChess's rules engine (core/src/board.rs and
//! chess.rs, MIT, used unchanged through #[path]): for each ply, the position, the legal
//! moves and the winner the engine reports, then the move played.
//!
//! Build, with /path/to/AnimalChess a checkout of github.com/netcan/AnimalChess (commit
//! 3db39ceb4fae98f46224bd7134eb83eab411e622) and no crates.io needed:
//!   rustc --edition 2018 --crate-type rlib --crate-name rand -O jungle_rand_shim.rs -o librand.rlib
//!   sed 's#ORACLE_DIR#/path/to/AnimalChess#' jungle_playouts.rs > driver.rs
//!   rustc --edition 2018 -O --extern rand=librand.rlib -L . -o jungle_playouts driver.rs
//! Run: ./jungle_playouts GAMES SEED MAXPLIES | gzip -9 > jungle_netcan_playouts.txt.gz
//! (80 games, seed 20261124, 300 plies), and ./jungle_playouts perft DEPTH [FEN] for move
//! counts (perft) from the start or a position.
#![allow(dead_code, unused_imports)]
#[path = "ORACLE_DIR/core/src/chess.rs"]
mod chess;
#[path = "ORACLE_DIR/core/src/board.rs"]
mod board;

use board::*;
use chess::RoleType;

fn square(pos: u8) -> String {
    let (row, col) = get_pos(pos);
    format!("{}{}", (b'a' + col as u8) as char, 9 - row)
}

fn winner(b: &Board) -> &'static str {
    match b.check_win() { RoleType::RED => "w", RoleType::BLACK => "b", RoleType::EMPTY => "-" }
}

fn perft(b: &mut Board, depth: u32) -> u64 {
    let moves = b.generate_all_steps();
    if depth == 1 { return moves.len() as u64; }
    let mut n = 0;
    for mv in moves { b.move_chess(mv); n += perft(b, depth - 1); b.undo_move(); }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "perft" {
        let mut b = Board::new();
        if args.len() > 3 { b.load_fen(&args[3]); }
        for d in 1..=args[2].parse::<u32>().unwrap() { println!("{} {}", d, perft(&mut b, d)); }
        return;
    }
    let games: u64 = args[1].parse().unwrap();
    let mut seed: u64 = args[2].parse().unwrap();
    let max_plies: usize = args[3].parse().unwrap();
    let mut next = move || { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; seed };
    for g in 0..games {
        let mut b = Board::new();
        println!("game {}", g);
        for _ in 0..max_plies {
            let mut moves: Vec<String> = b.generate_all_steps().iter()
                .map(|&m| format!("{}{}", square(get_src_pos(m)), square(get_dst_pos(m)))).collect();
            let raw = b.generate_all_steps();
            moves.sort();
            println!("{} | {} | {}", b.get_fen(), winner(&b), moves.join(" "));
            if raw.is_empty() { break; }
            let mv = raw[(next() % raw.len() as u64) as usize];
            println!("play {}{}", square(get_src_pos(mv)), square(get_dst_pos(mv)));
            b.move_chess(mv);
        }
        println!("end");
    }
}
