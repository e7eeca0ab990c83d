//! Shared nothing: the targets are the tests under `tests/`.
