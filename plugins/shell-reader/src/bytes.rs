//! A byte test on eight bytes at once, read as one 64-bit word: inside the
//! sandbox every turn of a loop checks the call's time bound, so a test
//! without a loop is faster on the short command names it is used on.

const ONES: u64 = u64::from_ne_bytes([1; 8]);

/// Marks where `byte` stands in `word`, eight bytes read little-endian: the
/// high bit of each byte of the result is set where that byte equals
/// `byte`. A byte just above a match may be marked too, so only the lowest
/// mark is exact; no match goes unmarked.
#[inline(always)]
pub fn marks(word: u64, byte: u8) -> u64 {
    let differ = word ^ (ONES * u64::from(byte));
    differ.wrapping_sub(ONES) & !differ & (ONES << 7)
}
