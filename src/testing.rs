//! Helpers shared by the unit tests.

/// A seeded xorshift generator: each call gives a number below its argument.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}
