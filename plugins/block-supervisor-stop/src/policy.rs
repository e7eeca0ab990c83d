//! The decision, apart from the bindings so it is tested natively.

use serde::Deserialize;
use serde_json::Value;

pub const ROLE_KEY: &str = "oko.role";
pub const WORK_KEY: &str = "oko.work";

/// Statuses of work that is over. Anything else, a missing status included, is open.
const CLOSED: &[&str] = &[
    "closed",
    "done",
    "cancelled",
    "canceled",
    "abandoned",
    "merged",
];

/// State as the host hands it: where it was read, and what it holds.
#[derive(Deserialize)]
struct Sourced<T> {
    source: String,
    value: T,
}

#[derive(Deserialize)]
struct Role {
    role: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Work {
    handed_out: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    id: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    executor: Option<String>,
    #[serde(default)]
    status: Option<String>,
}

pub fn is_stop(event: &str) -> bool {
    event == "stop"
}

pub fn check_config(config: &str) -> Result<(), String> {
    match serde_json::from_str::<Value>(config) {
        Ok(Value::Null) => Ok(()),
        Ok(Value::Object(fields)) if fields.is_empty() => Ok(()),
        Ok(other) => Err(format!(
            "block-supervisor-stop takes no configuration, got {other}"
        )),
        Err(e) => Err(format!("configuration is not JSON: {e}")),
    }
}

/// `Ok(Some(reason))` refuses the stop; `Err` names state that exists but
/// cannot be read, which the gate must not read as no work.
pub fn decide(
    agent: &str,
    role: Option<&str>,
    work: Option<&str>,
) -> Result<Option<String>, String> {
    let Some(role) = role.map(parse::<Role>).transpose()? else {
        return Ok(None);
    };
    if !role.value.role.eq_ignore_ascii_case("supervisor") {
        return Ok(None);
    }
    let Some(work) = work.map(parse::<Work>).transpose()? else {
        return Ok(None);
    };
    let open: Vec<String> = work
        .value
        .handed_out
        .iter()
        .filter(|i| is_open(i))
        .map(describe)
        .collect();
    if open.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "supervisor {agent} may not stop while executor work it handed out is still open: {}. \
         Wait for that work to finish, or close it in Oko, then stop.",
        open.join("; ")
    )))
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str) -> Result<Sourced<T>, String> {
    let raw: Sourced<Value> = serde_json::from_str(text)
        .map_err(|e| format!("Oko state from the host is malformed: {e}"))?;
    let source = raw.source;
    let value =
        T::deserialize(raw.value).map_err(|e| format!("Oko state {source} cannot be read: {e}"))?;
    Ok(Sourced { source, value })
}

fn is_open(item: &Item) -> bool {
    item.status
        .as_deref()
        .is_none_or(|s| !CLOSED.iter().any(|c| c.eq_ignore_ascii_case(s)))
}

fn describe(item: &Item) -> String {
    let mut text = item.id.clone();
    if let Some(title) = &item.title {
        text.push_str(&format!(" \"{title}\""));
    }
    let executor = item.executor.as_deref().unwrap_or("unassigned");
    let status = item.status.as_deref().unwrap_or("no status");
    text.push_str(&format!(" (executor {executor}, {status})"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sourced(value: &str) -> String {
        format!(r#"{{"source":"/o/agents/sup/x.json","value":{value}}}"#)
    }

    #[test]
    fn a_supervisor_with_open_work_is_refused_listing_it() {
        let role = sourced(r#"{"role":"supervisor"}"#);
        let work = sourced(
            r#"{"handedOut":[{"id":"T-1","title":"fix parser","executor":"codex-2","status":"open"},{"id":"T-2","status":"done"},{"id":"T-3"}]}"#,
        );
        let reason = decide("sup", Some(&role), Some(&work)).unwrap().unwrap();
        assert!(
            reason.contains("T-1 \"fix parser\" (executor codex-2, open)"),
            "{reason}"
        );
        assert!(
            reason.contains("T-3 (executor unassigned, no status)"),
            "{reason}"
        );
        assert!(!reason.contains("T-2"), "{reason}");
    }

    #[test]
    fn others_pass() {
        let supervisor = sourced(r#"{"role":"supervisor"}"#);
        let closed = sourced(r#"{"handedOut":[{"id":"T-2","status":"closed"}]}"#);
        assert_eq!(decide("a", Some(&supervisor), Some(&closed)), Ok(None));
        assert_eq!(decide("a", Some(&supervisor), None), Ok(None));
        assert_eq!(decide("a", None, Some(&closed)), Ok(None));
        let executor = sourced(r#"{"role":"executor"}"#);
        let open = sourced(r#"{"handedOut":[{"id":"T-1"}]}"#);
        assert_eq!(decide("a", Some(&executor), Some(&open)), Ok(None));
    }

    #[test]
    fn malformed_state_names_its_file() {
        let role = sourced(r#"{"role":"supervisor"}"#);
        let work = sourced(r#"{"handedOut":"lots"}"#);
        let why = decide("a", Some(&role), Some(&work)).unwrap_err();
        assert!(
            why.starts_with("Oko state /o/agents/sup/x.json cannot be read: invalid type"),
            "{why}"
        );
    }
}
