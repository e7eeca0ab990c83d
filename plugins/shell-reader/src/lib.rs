//! The shell reader Tama's gates share: [`shell`] parses command text as a
//! shell reads it, [`field`] is the value a word expands to, and [`bytes`]
//! the eight-bytes-at-once test a gate leans on.
//!
//! Built without `std` (only `alloc`), so that a gate built on it imports
//! nothing from WASI.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod bytes;
pub mod field;
mod prelude;
pub mod shell;
