//! What a kernel comparison runs on: [`GpuInput`], one input case on the
//! GPU (its buffers, bind groups, pipelines) with the buffer both kernels
//! write their result to; [`Element`], what that buffer holds; and reading
//! the result back to compare it.

use super::device::Gpu;
use crate::check::ApproxEq;
use crate::error::Error;
use std::fmt::Debug;
use std::sync::mpsc;

/// One input case of a kernel comparison: whatever the two kernels' record
/// functions need (buffers, bind groups, pipelines, sizes), and the buffer
/// they write their result to.
///
/// Before any timing, each kernel runs once on every case and the output
/// buffer is read back and compared. It is filled with `0xFF` bytes before
/// each of those runs (a NaN in every `f32`), so a kernel that leaves an
/// element unwritten is caught: kernels must overwrite the output, not
/// accumulate into it, and must not write their inputs. The buffer needs
/// [`wgpu::BufferUsages::COPY_SRC`] (to be read back) and
/// [`wgpu::BufferUsages::COPY_DST`] (to be filled).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a case two kernels can be compared on",
    label = "`{Self}` does not implement `faster::gpu::GpuInput`",
    note = "implement it: `impl faster::gpu::GpuInput for {Self} {{ type Element = f32; fn output(&self) -> &wgpu::Buffer {{ &self.output }} }}`, naming the buffer both kernels write"
)]
pub trait GpuInput {
    /// What the output buffer holds, element after element (`f32`, `u32`,
    /// `i32`).
    type Element: Element;

    /// The buffer both kernels write their result to.
    fn output(&self) -> &wgpu::Buffer;

    /// A short name for this case in tables, the JSON report and a mismatch
    /// (`512×512`); its index when `None`.
    fn label(&self) -> Option<String> {
        None
    }
}

/// An element of a kernel's output buffer, read back as the GPU wrote it.
///
/// Implemented for `f32`, `u32` and `i32`. For a struct of your own (a
/// `vec4<f32>`), implement it with `PartialEq`, `Debug` and
/// [`ApproxEq`](crate::ApproxEq) (for `check = approx(...)`).
pub trait Element: Copy + PartialEq + Debug + ApproxEq + 'static {
    /// Its size in the buffer, in bytes.
    const SIZE: usize;

    /// One element from its `SIZE` bytes, in the machine's byte order.
    fn from_bytes(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($($ty:ty),*) => {$(
        impl Element for $ty {
            const SIZE: usize = std::mem::size_of::<$ty>();

            fn from_bytes(bytes: &[u8]) -> Self {
                <$ty>::from_ne_bytes(bytes.try_into().expect("chunks are SIZE bytes long"))
            }
        }
    )*};
}

element!(f32, u32, i32);

/// Why `buffer` cannot serve as an output, if it cannot.
pub(crate) fn output_problem(buffer: &wgpu::Buffer) -> Option<String> {
    let needed = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let missing = needed - buffer.usage();
    (!missing.is_empty()).then(|| {
        format!(
            "the output buffer lacks the usage {missing:?}: create it with `usage: \
             BufferUsages::STORAGE | BufferUsages::COPY_SRC | BufferUsages::COPY_DST`, so it can \
             be filled before and read back after each checked run"
        )
    })
}

/// Fills `buffer` with `0xFF` bytes: what no kernel leaves by chance.
pub(crate) fn fill_sentinel(gpu: &Gpu, buffer: &wgpu::Buffer) {
    let bytes = vec![0xFF_u8; buffer.size() as usize];
    gpu.queue().write_buffer(buffer, 0, &bytes);
}

/// The elements `buffer` holds, once everything submitted has run.
pub(crate) fn read_back<E: Element>(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<E>, Error> {
    let size = buffer.size();
    if !(size as usize).is_multiple_of(E::SIZE) {
        return Err(Error::Gpu(format!(
            "the output buffer holds {size} bytes, not a whole number of {}-byte elements",
            E::SIZE
        )));
    }
    let staging = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("faster: output read back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    gpu.queue().submit([encoder.finish()]);
    let bytes = map_and_read(gpu, &staging)?;
    Ok(bytes.chunks_exact(E::SIZE).map(E::from_bytes).collect())
}

/// The bytes of a `MAP_READ` buffer, once everything submitted has run.
pub(crate) fn map_and_read(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, Error> {
    let (sender, receiver) = mpsc::channel();
    buffer
        .slice(..)
        .map_async(wgpu::MapMode::Read, move |mapped| {
            let _ = sender.send(mapped);
        });
    gpu.wait()?;
    match receiver.try_recv() {
        Ok(Ok(())) => {}
        Ok(Err(error)) => return Err(Error::Gpu(format!("reading a buffer back failed: {error}"))),
        Err(_) => {
            return Err(Error::Gpu(
                "a buffer was not mapped after the GPU finished".into(),
            ));
        }
    }
    let bytes = buffer
        .get_mapped_range(..)
        .map_err(|error| Error::Gpu(format!("reading a buffer back failed: {error}")))?
        .to_vec();
    buffer.unmap();
    Ok(bytes)
}
