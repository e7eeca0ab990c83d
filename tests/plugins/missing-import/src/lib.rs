//! Hostile test gate: imports `tama:extra/secret`, which the host does not
//! provide, so loading it must fail; were it loaded, `evaluate` would call it.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

wit_bindgen::generate!({ path: "wit", world: "missing-import", generate_all });

struct MissingImport;

impl Guest for MissingImport {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        Ok(Verdict::Refuse(tama::extra::secret::read()))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(MissingImport);
