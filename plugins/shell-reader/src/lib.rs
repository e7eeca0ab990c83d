//! The shell reader Tama's gates share: [`shell`] parses command text as a
//! shell reads it, and [`field`] is the value a word expands to.
//!
//! Built without `std` (only `alloc`), so that a gate built on it imports
//! nothing from WASI.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod field;
mod prelude;
pub mod shell;
