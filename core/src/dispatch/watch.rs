//! What a caller sees of a dispatch while it runs: the persistent runtime
//! uses it to name running hooks, to end them, and to stop a dispatch nobody
//! waits for.

use crate::command::Canceller;

pub trait Watch: Sync {
    /// Called once, before the first hook, when the dispatch will run a command hook.
    fn will_run_commands(&self) {}
    /// Asked before `next_hook` starts: `false` starts neither it nor any after it.
    fn proceed(&self, _next_hook: &str) -> bool {
        true
    }
    /// A hook started; a command hook with its process group and the handle that ends it.
    fn hook_started(
        &self,
        _hook_id: &str,
        _process_group: Option<i32>,
        _canceller: Option<Canceller>,
    ) {
    }
    fn hook_ended(&self, _hook_id: &str) {}
    /// Asked when a command hook's run is over: why, when another process
    /// ended its group because nobody waits for it, so it was cancelled.
    fn ended_elsewhere(&self, _hook_id: &str, _process_group: i32) -> Option<String> {
        None
    }
    /// Every hook of the dispatch has ended.
    fn hooks_ended(&self) {}
}

/// A dispatch nobody watches: a one-event run.
pub struct Unwatched;

impl Watch for Unwatched {}
