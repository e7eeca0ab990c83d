//! `tama peer-hook KIND EVENT`, and `tama peer-hook version`.

use std::io::{Read, Write};

use clap::Args;

use tama_peers::{self as peers, PeerError};

/// Run one peer hook (what `tama setup peers` installs), with the hook input
/// on stdin. It never breaks the agent: failures go to hooks.log in the peers
/// folder and it exits 0; only the waiter exits 2, with messages.
#[derive(Args)]
pub struct PeerHookArgs {
    /// KIND EVENT (claude, codex or omp, then session-start, prompt, pre-tool, stop, wait or session-end), or `version`.
    #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
    words: Vec<String>,
}

pub fn run(args: PeerHookArgs) -> u8 {
    let dir = peers::peers_dir();
    let words: Vec<&str> = args.words.iter().map(String::as_str).collect();
    if words.last() == Some(&"version") {
        println!("tama {}", env!("CARGO_PKG_VERSION"));
        return 0;
    }
    let [kind, event] = words[..] else {
        let err = PeerError::Input(format!(
            "expected `tama peer-hook KIND EVENT`, got {:?}",
            words.join(" ")
        ));
        peers::journal_error(&dir, words.get(1).copied().unwrap_or("-"), &err);
        return 0;
    };
    let mut input = String::new();
    if let Err(err) = std::io::stdin().read_to_string(&mut input) {
        peers::journal_error(
            &dir,
            event,
            &PeerError::Io {
                what: "cannot read the hook input".into(),
                source: err,
            },
        );
        return 0;
    }
    let outcome = peers::peer_hook(&dir, kind, event, &input);
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    outcome.code
}
