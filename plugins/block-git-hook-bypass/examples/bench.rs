use std::time::Instant;
fn main() {
    let unit = "cd \"$(git rev-parse --show-toplevel)\" && npm ci --silent && npm test -- --coverage 2>&1 | tail -n 20; \
if [ -n \"$(git status --porcelain)\" ]; then git add -A && git commit -m \"chore: update $(date +%F)\" -m 'Body text here'; fi\n\
for f in src/*.ts; do npx prettier --check \"$f\" || echo \"bad: $f\"; done; git push origin HEAD:refs/heads/feature-x\n";
    let mut s = String::new();
    while s.len() < 2048 { s.push_str(unit); }
    let iterations: usize = std::env::var("ITER").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let parse = std::env::var("MODE").is_ok_and(|m| m == "parse");
    assert!(block_git_hook_bypass::refusal_reason(&s).is_none());
    let mut times = Vec::new();
    for _ in 0..iterations {
        let t = Instant::now();
        if parse {
            std::hint::black_box(block_git_hook_bypass::parse_only(std::hint::black_box(&s)));
        } else {
            std::hint::black_box(block_git_hook_bypass::refusal_reason(std::hint::black_box(&s)));
        }
        times.push(t.elapsed());
    }
    times.sort();
    println!("len {} {} median {:?}", s.len(), if parse { "parse" } else { "full" }, times[times.len() / 2]);
}
