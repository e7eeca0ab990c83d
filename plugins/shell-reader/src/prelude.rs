//! The `alloc` items every module uses, which `std`'s prelude would bring:
//! the crate is built without `std`.

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::format;
pub use alloc::string::{String, ToString};
pub use alloc::vec;
pub use alloc::vec::Vec;
