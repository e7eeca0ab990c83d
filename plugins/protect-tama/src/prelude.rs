//! The `alloc` items every module uses, which `std`'s prelude would bring:
//! the component is built without `std` (see `wasm_runtime`).

pub use alloc::borrow::{Cow, ToOwned};
pub use alloc::format;
pub use alloc::string::String;
pub use alloc::vec;
pub use alloc::vec::Vec;
