//! The tool declaration component, run by the host for the engine and on
//! behalf of every gate that asks it.

use wasmtime::Store;
use wasmtime::component::Component;

use super::bindings::declaration::ToolDeclarationPre;
use super::bindings::declaration::exports::tama::gate::declaration as wit;
use super::sandbox::{FUEL_BOUND, Sandboxed};
use super::{Host, fault};
use crate::tool::{ToolCall, ToolKind, WriteTarget};

/// Why a tool call could not be classified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassifyError {
    /// The tool input is malformed in a way the declaration names.
    #[error("{0}")]
    Protocol(String),
    /// The declaration component itself failed.
    #[error("the tool declaration failed: {0}")]
    Failed(String),
}

pub struct Declaration {
    pre: ToolDeclarationPre<Sandboxed<()>>,
}

impl Declaration {
    pub fn new(host: &Host, component: &Component) -> wasmtime::Result<Self> {
        let pre = host.declaration_linker().instantiate_pre(component)?;
        Ok(Declaration { pre: ToolDeclarationPre::new(pre)? })
    }

    /// Classifies one tool call in a fresh instance.
    pub fn classify(&self, tool_name: &str, tool_input: &str) -> Result<ToolCall, ClassifyError> {
        let mut store = Store::new(self.pre.engine(), Sandboxed::new(()));
        store.limiter(|s| &mut s.bounds);
        store.set_fuel(FUEL_BOUND).map_err(|e| ClassifyError::Failed(format!("{e:#}")))?;
        let answer = self
            .pre
            .instantiate(&mut store)
            .and_then(|d| d.tama_gate_declaration().call_classify(&mut store, tool_name, tool_input));
        match answer {
            Ok(Ok(call)) => Ok(from_wit(call)),
            Ok(Err(protocol)) => Err(ClassifyError::Protocol(protocol)),
            Err(err) => Err(ClassifyError::Failed(fault(err, store.data()).to_string())),
        }
    }
}

fn from_wit(call: wit::ToolCall) -> ToolCall {
    ToolCall {
        name: call.name,
        kind: match call.kind {
            wit::ToolKind::Shell => ToolKind::Shell,
            wit::ToolKind::Write => ToolKind::Write,
            wit::ToolKind::Lookup => ToolKind::Lookup,
            wit::ToolKind::Other => ToolKind::Other,
        },
        command: call.command,
        targets: call
            .targets
            .into_iter()
            .map(|t| WriteTarget { path: t.path, device_action: t.device_action })
            .collect(),
    }
}
