//! Where and how a result was measured, as the document writes it: the GPU
//! its kernels ran on, how far its verdict reaches (the layouts its
//! processes ran in), and across revisions, the function's compiled code in
//! each.

use crate::report::{Callee, CompiledCode, GpuInfo, Scope};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct GpuDoc {
    adapter: String,
    backend: String,
    device_type: String,
    driver: String,
    cache_flush_bytes: Option<u64>,
}

impl GpuDoc {
    pub(super) fn of(gpu: &GpuInfo) -> GpuDoc {
        GpuDoc {
            adapter: gpu.adapter.clone(),
            backend: gpu.backend.clone(),
            device_type: gpu.device_type.clone(),
            driver: gpu.driver.clone(),
            cache_flush_bytes: gpu.cache_flush_bytes,
        }
    }

    pub(super) fn into_info(self) -> GpuInfo {
        GpuInfo {
            adapter: self.adapter,
            backend: self.backend,
            device_type: self.device_type,
            driver: self.driver,
            cache_flush_bytes: self.cache_flush_bytes,
        }
    }
}

/// Whether the processes ran in layouts of their own, and why not.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ScopeDoc {
    layouts: bool,
    reason: Option<String>,
}

impl ScopeDoc {
    pub(super) fn of(scope: &Scope) -> ScopeDoc {
        match scope {
            Scope::Layouts => ScopeDoc {
                layouts: true,
                reason: None,
            },
            Scope::ThisBuild(reason) => ScopeDoc {
                layouts: false,
                reason: Some(reason.clone()),
            },
        }
    }

    pub(super) fn into_scope(self) -> Scope {
        match (self.layouts, self.reason) {
            (true, _) => Scope::Layouts,
            (false, reason) => Scope::ThisBuild(reason.unwrap_or_default()),
        }
    }
}

/// [`CompiledCode`]: whether the source is unchanged, the timed loop's size
/// in each revision and whether its instructions differ, the callees whose
/// code differs, the functions whose calls could not be followed, and
/// whether the code changed alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct CompiledCodeDoc {
    source_unchanged: bool,
    timed_loop_bytes: RevisionsDoc<u64>,
    /// Absent from reports written before callees were read: there, a
    /// difference in size was the only difference seen.
    #[serde(default)]
    timed_loop_differs: Option<bool>,
    #[serde(default)]
    callees_differing: Vec<CalleeDoc>,
    /// Absent from reports written before the whole reach was read.
    #[serde(default)]
    not_followed: Vec<String>,
    /// Derived from the fields above; written for readers, not read back.
    changed_alone: bool,
}

/// A figure at the base revision and in the current code.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RevisionsDoc<T> {
    base: T,
    current: T,
}

/// [`Callee`]: its name, its size at each revision (`null` where that
/// revision's loop does not reach it), and whether its crate was edited.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CalleeDoc {
    name: String,
    bytes: RevisionsDoc<Option<u64>>,
    /// Absent from reports written before it was told.
    #[serde(default)]
    source_changed: bool,
}

impl CompiledCodeDoc {
    pub(super) fn of(code: &CompiledCode) -> CompiledCodeDoc {
        let [base, current] = code.timed_loop_bytes;
        CompiledCodeDoc {
            source_unchanged: code.source_unchanged,
            timed_loop_bytes: RevisionsDoc { base, current },
            timed_loop_differs: Some(code.timed_loop_differs),
            callees_differing: code
                .callees_differing
                .iter()
                .map(|callee| {
                    let [base, current] = callee.bytes;
                    CalleeDoc {
                        name: callee.name.clone(),
                        bytes: RevisionsDoc { base, current },
                        source_changed: callee.source_changed,
                    }
                })
                .collect(),
            not_followed: code.not_followed.clone(),
            changed_alone: code.changed_alone(),
        }
    }

    pub(super) fn into_code(self) -> CompiledCode {
        let timed_loop_bytes = [self.timed_loop_bytes.base, self.timed_loop_bytes.current];
        CompiledCode {
            source_unchanged: self.source_unchanged,
            timed_loop_differs: self
                .timed_loop_differs
                .unwrap_or(timed_loop_bytes[0] != timed_loop_bytes[1]),
            timed_loop_bytes,
            callees_differing: self
                .callees_differing
                .into_iter()
                .map(|callee| Callee {
                    name: callee.name,
                    bytes: [callee.bytes.base, callee.bytes.current],
                    source_changed: callee.source_changed,
                })
                .collect(),
            not_followed: self.not_followed,
        }
    }
}
