//! The GPU kernels run on: [`Gpu`], an adapter's device and queue with
//! timestamp queries where the adapter has them; the adapters this machine
//! has ([`adapters`]); and the one device the attribute's comparisons share
//! ([`Gpu::shared`]).

use crate::error::Error;
use crate::report::GpuInfo;
use std::future::Future;
use std::sync::OnceLock;
use std::task::{Context, Poll, Waker};

/// What to do on a machine without any adapter: the software Vulkan driver
/// that runs compute shaders on the CPU, where the package exists.
pub const INSTALL_HINT: &str = "install a GPU driver, or Mesa's software Vulkan driver, which runs \
     compute shaders on the CPU (Debian and Ubuntu: `apt-get install -y mesa-vulkan-drivers`)";

/// A GPU device and its queue, on which kernels are compared.
///
/// [`Gpu::new`] picks the machine's adapter (as wgpu's own examples do:
/// `WGPU_ADAPTER_NAME`, `WGPU_BACKEND` and `WGPU_POWER_PREF` choose among
/// several) and asks for timestamp queries wherever the adapter has them, so
/// samples are timed on the GPU; [`Gpu::from_device`] wraps a device of your
/// own. Create your buffers, pipelines and bind groups on [`Gpu::device`].
///
/// ```no_run
/// use faster_runtime::gpu::Gpu;
///
/// let gpu = Gpu::new()?;
/// println!("{} ({:?})", gpu.adapter().name, gpu.adapter().backend);
/// # Ok::<(), faster_runtime::Error>(())
/// ```
#[derive(Debug)]
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter: wgpu::AdapterInfo,
}

impl Gpu {
    /// The machine's adapter with a device of its own limits and, where the
    /// adapter has them, timestamp queries. An error says why there is none
    /// (and what to install when the machine has no adapter at all).
    pub fn new() -> Result<Gpu, Error> {
        let adapter = choose_adapter(&instance())?;
        let timestamps = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("faster"),
            required_features: timestamps,
            required_limits: adapter.limits(),
            ..wgpu::DeviceDescriptor::default()
        }))
        .map_err(|error| {
            Error::Gpu(format!(
                "the adapter `{}` refused a device: {error}",
                adapter.get_info().name
            ))
        })?;
        Ok(Gpu::from_device(adapter.get_info(), device, queue))
    }

    /// A device of your own, created from the adapter `adapter` describes.
    /// Samples are timed on the GPU when the device was created with
    /// [`wgpu::Features::TIMESTAMP_QUERY`]; otherwise by the wall clock
    /// around each submission, and the report says so.
    pub fn from_device(
        adapter: wgpu::AdapterInfo,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Gpu {
        Gpu {
            device,
            queue,
            adapter,
        }
    }

    /// The device the attribute's comparisons share in this process, made by
    /// [`Gpu::new`] on first use.
    pub fn shared() -> Result<&'static Gpu, Error> {
        static SHARED: OnceLock<Result<Gpu, Error>> = OnceLock::new();
        SHARED.get_or_init(Gpu::new).as_ref().map_err(Clone::clone)
    }

    /// The device: create buffers, pipelines and bind groups on it.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue comparisons submit to.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The adapter the device belongs to.
    pub fn adapter(&self) -> &wgpu::AdapterInfo {
        &self.adapter
    }

    /// Whether samples are timed by the GPU's own timestamps.
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// The adapter as a report names it, with the bytes written between
    /// samples to flush caches (`None`: not flushed).
    pub(crate) fn info(&self, cache_flush_bytes: Option<u64>) -> GpuInfo {
        let adapter = &self.adapter;
        let driver = [adapter.driver.as_str(), adapter.driver_info.as_str()]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        GpuInfo {
            adapter: adapter.name.clone(),
            backend: backend_name(adapter.backend).into(),
            device_type: device_type_name(adapter.device_type).into(),
            driver,
            cache_flush_bytes,
        }
    }

    /// Waits until everything submitted so far has run.
    pub(crate) fn wait(&self) -> Result<(), Error> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|error| Error::Gpu(format!("waiting for the GPU failed: {error}")))
    }
}

/// Every adapter this machine has, on every backend wgpu was built with;
/// empty where there is none (no GPU and no software driver).
pub fn adapters() -> Vec<wgpu::AdapterInfo> {
    block_on(instance().enumerate_adapters(wgpu::Backends::all()))
        .iter()
        .map(wgpu::Adapter::get_info)
        .collect()
}

/// A wgpu instance for compute only (no window), its backends chosen by
/// `WGPU_BACKEND` as in wgpu's own examples.
fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
}

/// `WGPU_ADAPTER_NAME`'s adapter when it is set (an error naming those
/// there are when it matches none), else the one wgpu prefers.
fn choose_adapter(instance: &wgpu::Instance) -> Result<wgpu::Adapter, Error> {
    let available = block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    if available.is_empty() {
        return Err(Error::Gpu(format!(
            "this machine has no GPU adapter: {INSTALL_HINT}"
        )));
    }
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let wanted = wanted.to_lowercase();
        let names = available
            .iter()
            .map(|adapter| format!("`{}`", adapter.get_info().name))
            .collect::<Vec<_>>()
            .join(", ");
        return available
            .into_iter()
            .find(|adapter| adapter.get_info().name.to_lowercase().contains(&wanted))
            .ok_or_else(|| {
                Error::Gpu(format!(
                    "WGPU_ADAPTER_NAME={wanted} names none of this machine's adapters: {names}"
                ))
            });
    }
    block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference:
            wgpu::PowerPreference::from_env().unwrap_or(wgpu::PowerPreference::HighPerformance),
        ..wgpu::RequestAdapterOptions::default()
    }))
    .map_err(|error| Error::Gpu(format!("no usable GPU adapter: {error}")))
}

fn backend_name(backend: wgpu::Backend) -> &'static str {
    match backend {
        wgpu::Backend::Vulkan => "Vulkan",
        wgpu::Backend::Metal => "Metal",
        wgpu::Backend::Dx12 => "DX12",
        wgpu::Backend::Gl => "GL",
        wgpu::Backend::BrowserWebGpu => "WebGPU",
        wgpu::Backend::Noop => "no-op",
    }
}

fn device_type_name(device_type: wgpu::DeviceType) -> &'static str {
    match device_type {
        wgpu::DeviceType::DiscreteGpu => "discrete GPU",
        wgpu::DeviceType::IntegratedGpu => "integrated GPU",
        wgpu::DeviceType::VirtualGpu => "virtual GPU",
        wgpu::DeviceType::Cpu => "CPU",
        wgpu::DeviceType::Other => "other",
    }
}

/// Runs a wgpu future to completion on this thread. On native backends
/// they are ready at once, or after the device is polled elsewhere; there
/// is no executor to wake.
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}
