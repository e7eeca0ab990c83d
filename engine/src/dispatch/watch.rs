//! What a caller sees of a dispatch while it runs: the persistent runtime
//! uses it to name running hooks, to end them, and to stop a dispatch nobody
//! waits for.

use crate::command::Canceller;

pub trait Watch: Sync {
    /// Asked before `next_hook` starts: `false` starts neither it nor any after it.
    fn proceed(&self, _next_hook: &str) -> bool {
        true
    }
    /// A hook started; a command hook with its process group and the handle that ends it.
    fn hook_started(&self, _hook_id: &str, _process_group: Option<i32>, _canceller: Option<Canceller>) {}
    fn hook_ended(&self, _hook_id: &str) {}
    /// Every hook of the dispatch has ended.
    fn hooks_ended(&self) {}
}

/// A dispatch nobody watches: a one-event run.
pub struct Unwatched;

impl Watch for Unwatched {}
