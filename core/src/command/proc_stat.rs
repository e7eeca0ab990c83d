//! One process as `/proc/<pid>/stat` describes it: what finding a hook's
//! adopted descendants and ending a hook group both read.

/// What `/proc/<pid>/stat` says of a process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The command name, as the kernel keeps it (at most 15 bytes).
    pub name: String,
    pub ppid: i32,
    pub pgrp: i32,
    /// Clock ticks after boot when the process started.
    pub start: u64,
    pub zombie: bool,
}

pub fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
    let (open, close) = (text.find('(')?, text.rfind(')')?);
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    Some(Stat {
        name: text.get(open + 1..close)?.to_string(),
        zombie: *fields.first()? == "Z",
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}
