//! The committed JSON Schema is the one the registry types generate, and the
//! example registries are sealed and valid.

mod support;

#[test]
fn the_committed_schema_matches_the_generated_one() {
    let committed = std::fs::read_to_string(support::repo_file("registry-schema/registry.schema.json")).unwrap_or_default();
    assert!(
        committed == tama_engine::registry::schema(),
        "registry-schema/registry.schema.json is stale: regenerate it with `tama registry schema > registry-schema/registry.schema.json`"
    );
}

#[test]
fn the_embedded_default_registry_is_sealed_and_valid() {
    let loaded = tama_engine::registry::Loaded::embedded().expect("the default registry loads");
    assert!(loaded.registry.release_id.as_deref().is_some_and(|r| r.starts_with("tama-")));
    let ids = loaded.registry.hook_ids();
    assert_eq!(ids, ["block-git-hook-bypass", "block-supervisor-stop", "block-text-outside-tool-calls"]);
}

#[test]
fn the_checksum_is_the_existing_installers() {
    // sha256 of {"a":"é","b":[1,{"c":2,"d":null}]}: sorted keys, no spaces, non-ASCII as it is.
    let registry = serde_json::json!({"b": [1, {"d": null, "c": 2}], "catalogChecksum": "x", "a": "é"});
    let expected = tama_engine::registry::checksum::sha256_hex("{\"a\":\"é\",\"b\":[1,{\"c\":2,\"d\":null}]}".as_bytes());
    assert_eq!(tama_engine::registry::checksum::catalog_checksum(&registry), expected);
}
