//! The two calls of the `rand` crate that netcan/AnimalChess's board.rs makes (its Zobrist
//! table): a fixed xorshift generator, so the oracle builds without crates.io.
pub struct ThreadRng(u64);
pub fn thread_rng() -> ThreadRng { ThreadRng(0x9E3779B97F4A7C15) }
pub trait Rng { fn gen<T: From<u64>>(&mut self) -> T; }
impl Rng for ThreadRng {
    fn gen<T: From<u64>>(&mut self) -> T {
        let mut x = self.0; x ^= x << 13; x ^= x >> 7; x ^= x << 17; self.0 = x; T::from(x)
    }
}
