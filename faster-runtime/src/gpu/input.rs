//! What a kernel comparison runs on: [`GpuInput`], one input case on the
//! GPU (its buffers, bind groups, pipelines) with the buffer both kernels
//! write their result to; [`Element`], what that buffer holds; and filling
//! the buffer before a checked run and reading the result back, with which
//! elements still hold the fill.

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
/// element unwritten is caught, and the mismatch says which element still
/// holds the fill: kernels must overwrite the output, not
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

/// The byte an output buffer is filled with before each checked run: what
/// no kernel leaves by chance (a NaN in every `f32`, `u32::MAX`, `-1`).
const FILL: u8 = 0xFF;

/// Fills `buffer` with [`FILL`] bytes.
pub(crate) fn fill_sentinel(gpu: &Gpu, buffer: &wgpu::Buffer) {
    let bytes = vec![FILL; buffer.size() as usize];
    gpu.queue().write_buffer(buffer, 0, &bytes);
}

/// What one kernel left in its output buffer.
pub(crate) struct Output<E> {
    /// The elements, as the kernel wrote them.
    pub elements: Vec<E>,
    /// For each element, whether it still holds the fill: every byte
    /// [`FILL`], as before the run.
    pub unwritten: Vec<bool>,
}

/// What a mismatch adds where an element that differs still holds the fill
/// the output buffer started with, so the reader is not left to wonder what
/// `4294967295` or `NaN` is: a line per side, naming its first such
/// element. Empty when there is none.
pub(crate) fn unwritten_note<E: Element>(original: &Output<E>, candidate: &Output<E>) -> String {
    let mut note = String::new();
    for (side, output, other) in [
        ("original", original, candidate),
        ("candidate", candidate, original),
    ] {
        // A fill both sides left behind differs only where it is not equal
        // to itself (NaN).
        let differing_fill: Vec<usize> = (0..output.elements.len())
            .filter(|&index| {
                output.unwritten[index]
                    && other.elements.get(index) != Some(&output.elements[index])
            })
            .collect();
        let Some((&first, more)) = differing_fill.split_first() else {
            continue;
        };
        let also = match more.len() {
            0 => String::new(),
            1 => ", as does 1 more of its elements".to_string(),
            more => format!(", as do {more} more of its elements"),
        };
        note.push_str(&format!(
            "\n  unwritten: [{first}] of the {side}'s output holds {:?} (0x{}: the fill the \
             output buffer started with — the kernel never wrote this element){also}",
            output.elements[first],
            "FF".repeat(E::SIZE),
        ));
    }
    note
}

/// What `buffer` holds, once everything submitted has run.
pub(crate) fn read_back<E: Element>(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Output<E>, Error> {
    let size = buffer.size();
    if (size as usize) % E::SIZE != 0 {
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
    Ok(Output {
        elements: bytes.chunks_exact(E::SIZE).map(E::from_bytes).collect(),
        unwritten: bytes
            .chunks_exact(E::SIZE)
            .map(|element| element.iter().all(|&byte| byte == FILL))
            .collect(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn output<E: Element>(elements: Vec<E>, unwritten: &[usize]) -> Output<E> {
        let unwritten = (0..elements.len())
            .map(|index| unwritten.contains(&index))
            .collect();
        Output {
            elements,
            unwritten,
        }
    }

    #[test]
    fn an_element_still_holding_the_fill_is_said_to_be_unwritten() {
        let original = output(vec![1_u32, 2, 3, 4], &[]);
        let candidate = output(vec![1, u32::MAX, 3, u32::MAX], &[1, 3]);
        assert_eq!(
            unwritten_note(&original, &candidate),
            "\n  unwritten: [1] of the candidate's output holds 4294967295 (0xFFFFFFFF: the fill \
             the output buffer started with — the kernel never wrote this element), as does 1 \
             more of its elements"
        );
    }

    #[test]
    fn a_fill_both_sides_left_is_said_only_where_it_is_not_equal_to_itself() {
        // u32::MAX equals itself: where both left it, the outputs agree.
        let both = output(vec![7_u32, u32::MAX], &[1]);
        assert_eq!(unwritten_note(&both, &output(vec![7, u32::MAX], &[1])), "");
        // NaN does not: both sides are named.
        let nan = || output(vec![f32::NAN, 0.5, f32::NAN], &[0, 2]);
        let note = unwritten_note(&nan(), &nan());
        assert!(
            note.starts_with(
                "\n  unwritten: [0] of the original's output holds NaN (0xFFFFFFFF: the fill"
            ),
            "{note}"
        );
        assert!(
            note.contains("\n  unwritten: [0] of the candidate's output holds NaN"),
            "{note}"
        );
        assert!(note.ends_with("as does 1 more of its elements"), "{note}");
        // Written everywhere: nothing to add.
        let written = output(vec![1.0_f32, 2.0], &[]);
        assert_eq!(unwritten_note(&written, &output(vec![1.0, 3.0], &[])), "");
    }
}
