fn main() {
    let text = std::fs::read_to_string("plugins/block-git-hook-bypass/tests/cases.json").unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for case in value.as_array().unwrap() {
        let command = case["command"].as_str().unwrap();
        if let Some(reason) = block_git_hook_bypass::refusal_reason(command) {
            println!("{command:?}\n    {reason}");
        }
    }
}
