//! The tool declaration component, run by the host for the engine and on
//! behalf of every gate that asks it.

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use wasmtime::Store;
use wasmtime::component::Component;

use super::bindings::declaration::exports::tama::gate::declaration as wit;
use super::bindings::declaration::{ToolDeclaration, ToolDeclarationPre};
use super::idle::take_own;
use super::sandbox::{DEADLINE_TICKS, Sandboxed};
use super::slots::Slots;
use super::ticker::Ticker;
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

/// The tool declaration is Tama's own pure function of its input, so unlike
/// a gate it keeps an idle instance between calls: instantiating costs more
/// than classifying. A call that fails drops its instance; the next call
/// gets a fresh one.
pub struct Declaration {
    pre: ToolDeclarationPre<Sandboxed<()>>,
    /// Idle instances, each with the thread that kept it (see `idle.rs`).
    idle: Mutex<Vec<(ThreadId, Instance)>>,
    slots: Slots,
    ticker: Arc<Ticker>,
}

type Instance = (Store<Sandboxed<()>>, ToolDeclaration);

impl Declaration {
    /// At most `concurrent` calls run at once, each in an instance of its own.
    pub fn new(host: &Host, component: &Component, concurrent: usize) -> wasmtime::Result<Self> {
        let pre = host
            .declaration_linker(component)?
            .instantiate_pre(component)?;
        Ok(Declaration {
            pre: ToolDeclarationPre::new(pre)?,
            idle: Mutex::new(Vec::new()),
            slots: Slots::new(concurrent),
            ticker: host.ticker.clone(),
        })
    }

    /// Classifies one tool call.
    pub fn classify(&self, tool_name: &str, tool_input: &str) -> Result<ToolCall, ClassifyError> {
        let failed = |e: wasmtime::Error| ClassifyError::Failed(format!("{e:#}"));
        let _slot = self.slots.take();
        let _ticking = self.ticker.calling();
        let idle = take_own(&mut self.idle.lock().expect("declaration pool lock"));
        let (mut store, declaration) = match idle {
            Some(instance) => instance,
            None => {
                let mut store = Store::new(self.pre.engine(), Sandboxed::new(()));
                store.limiter(|s| &mut s.bounds);
                store.set_epoch_deadline(DEADLINE_TICKS);
                let declaration = self.pre.instantiate(&mut store).map_err(failed)?;
                (store, declaration)
            }
        };
        store.set_epoch_deadline(DEADLINE_TICKS);
        let answer = declaration
            .tama_gate_declaration()
            .call_classify(&mut store, tool_name, tool_input);
        match answer {
            Ok(answer) => {
                self.idle
                    .lock()
                    .expect("declaration pool lock")
                    .push((std::thread::current().id(), (store, declaration)));
                answer.map(from_wit).map_err(ClassifyError::Protocol)
            }
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
            .map(|t| WriteTarget {
                path: t.path,
                device_action: t.device_action,
                text: t.text,
            })
            .collect(),
    }
}
