//! Seed derivation: every random stream of a study comes from `(master seed, deal index, stream)`.
//!
//! The derivation is SplitMix64 applied in sequence: `s = mix(master)`, `s = mix(s ^ index)`,
//! `s = mix(s ^ stream)`, and the 128-bit state of a `Pcg64Mcg` is `mix(s) << 64 | mix(s ^ GOLDEN)`.
//! Stream 0 is the deal; streams `1 + seat` (and beyond, for rotations and agents) are documented
//! where they are used. Game `i` is therefore the same on any thread, shard or machine.

use rand_pcg::Pcg64Mcg;

/// The random generator of one game or agent.
pub type GameRng = Pcg64Mcg;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: a bijective mixer of 64-bit words.
pub(crate) const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The 64-bit seed of stream `stream` of deal `index` under `master`.
pub(crate) const fn derive_seed(master: u64, index: u64, stream: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(master) ^ index) ^ stream)
}

/// The generator of stream `stream` of deal `index` under `master`.
///
/// # Examples
/// ```
/// use bailab::rng::stream_rng;
/// use rand::Rng;
/// let a: u64 = stream_rng(7, 3, 0).random();
/// let b: u64 = stream_rng(7, 3, 0).random();
/// assert_eq!(a, b);
/// ```
pub fn stream_rng(master: u64, index: u64, stream: u64) -> GameRng {
    let s = derive_seed(master, index, stream);
    let state = (u128::from(splitmix64(s)) << 64) | u128::from(splitmix64(s ^ GOLDEN));
    Pcg64Mcg::new(state)
}

/// The stream number of the deal itself.
pub const DEAL_STREAM: u64 = 0;

/// Shuffles `items` in place with the exact Fisher–Yates algorithm (unbiased `random_range`).
pub fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    use rand::Rng;
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i as u32) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_differ_and_repeat() {
        let x: u64 = stream_rng(1, 0, 0).random();
        assert_eq!(x, stream_rng(1, 0, 0).random::<u64>());
        assert_ne!(x, stream_rng(1, 1, 0).random::<u64>());
        assert_ne!(x, stream_rng(1, 0, 1).random::<u64>());
        assert_ne!(x, stream_rng(2, 0, 0).random::<u64>());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..112).collect();
        shuffle(&mut v, &mut stream_rng(5, 5, 0));
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..112).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}
