//! Where and how a result was measured, as the document writes it: the GPU
//! its kernels ran on, and how far its verdict reaches (the layouts its
//! processes ran in).

use crate::report::{GpuInfo, Scope};
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
