//! The `alloc` items every module uses, which `std`'s prelude would bring:
//! the component is built without `std` (see `wasm_runtime`).

// `std`'s prelude has it too, so a native build does not need it.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use alloc::borrow::ToOwned;
pub use alloc::format;
pub use alloc::string::{String, ToString};
pub use alloc::vec;
pub use alloc::vec::Vec;
