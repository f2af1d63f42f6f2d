//! Kernels whose relation is known by construction, for the GPU tests and
//! the GPU accuracy benchmark (`examples/gpu_accuracy.rs` includes this
//! file).
//!
//! - `busy`: every invocation runs a chain of `x = a·x + b` (wrapping u32)
//!   steps, each needing the one before. [`busy_twice`] runs `2·trips` steps
//!   of `(a, b)`; [`busy_once`] runs `trips` steps of the step composed with
//!   itself, `(a², a·b + b)`: the same shader, the same work per step, half
//!   the steps, and bit for bit the same result. The true ratio is 2 minus
//!   what a dispatch costs besides its loop.
//! - `scale`: `y = x · 0.1 · 3` against `y = x · 0.3`, which round
//!   differently: equal within `approx(1e-6)`, not by `eq`; and two wrong
//!   ones, which write -1 to element 100 or never write it.

use faster::gpu::{Gpu, GpuInput, wgpu};
use wgpu::util::DeviceExt;

const BUSY: &str = r#"
struct Step { trips: u32, a: u32, b: u32, pad: u32 }
@group(0) @binding(0) var<uniform> step: Step;
@group(0) @binding(1) var<storage, read_write> values: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= arrayLength(&values)) { return; }
    var x = id.x * 2654435761u + 1u;
    for (var i = 0u; i < step.trips; i++) {
        x = x * step.a + step.b;
    }
    values[id.x] = x;
}
"#;

/// The multiplier and increment of one step (Knuth's MMIX LCG's, truncated).
const A: u32 = 1_664_525;
const B: u32 = 1_013_904_223;

/// One case of the `busy` kernel: its output, and a bind group per side.
pub struct Busy {
    pipeline: wgpu::ComputePipeline,
    twice: wgpu::BindGroup,
    once: wgpu::BindGroup,
    output: wgpu::Buffer,
    workgroups: u32,
    /// Single steps of the original, all invocations together.
    pub steps: u64,
}

impl GpuInput for Busy {
    type Element = u32;

    fn output(&self) -> &wgpu::Buffer {
        &self.output
    }

    fn label(&self) -> Option<String> {
        Some(format!("{} invocations", self.workgroups * 64))
    }
}

/// `invocations` (a multiple of 64) chains of `2·trips` steps, or of
/// `trips` double steps.
pub fn busy(gpu: &Gpu, invocations: u32, trips: u32) -> Busy {
    let device = gpu.device();
    let pipeline = pipeline(gpu, BUSY, "main");
    let output = storage(gpu, u64::from(invocations) * 4);
    let bind = |[trips, a, b]: [u32; 3]| {
        let step = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("busy: step"),
            contents: &[trips, a, b, 0].map(u32::to_ne_bytes).concat(),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        bind_group(gpu, &pipeline, &[&step, &output])
    };
    Busy {
        twice: bind([2 * trips, A, B]),
        once: bind([trips, A.wrapping_mul(A), A.wrapping_mul(B).wrapping_add(B)]),
        pipeline,
        output,
        workgroups: invocations / 64,
        steps: 2 * u64::from(trips) * u64::from(invocations),
    }
}

/// `2·trips` single steps.
pub fn busy_twice(pass: &mut wgpu::ComputePass<'_>, case: &Busy) {
    pass.set_pipeline(&case.pipeline);
    pass.set_bind_group(0, &case.twice, &[]);
    pass.dispatch_workgroups(case.workgroups, 1, 1);
}

/// `trips` double steps: the same result in half the steps.
pub fn busy_once(pass: &mut wgpu::ComputePass<'_>, case: &Busy) {
    pass.set_pipeline(&case.pipeline);
    pass.set_bind_group(0, &case.once, &[]);
    pass.dispatch_workgroups(case.workgroups, 1, 1);
}

const SCALE: &str = r#"
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
// 0.1, 3 and 0.3, read at run time: constants would be folded together.
@group(0) @binding(2) var<storage, read> factors: array<f32, 3>;

@compute @workgroup_size(64)
fn in_two_steps(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&y)) { y[id.x] = x[id.x] * factors[0] * factors[1]; }
}

@compute @workgroup_size(64)
fn in_one_step(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&y)) { y[id.x] = x[id.x] * factors[2]; }
}

@compute @workgroup_size(64)
fn off_by_one_element(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&y)) { y[id.x] = select(x[id.x] * factors[2], -1.0, id.x == 100u); }
}

@compute @workgroup_size(64)
fn skips_one_element(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&y) && id.x != 100u) { y[id.x] = x[id.x] * factors[2]; }
}
"#;

/// A `scale` kernel bound to its case's buffers.
pub struct Kernel {
    pipeline: wgpu::ComputePipeline,
    bindings: wgpu::BindGroup,
}

/// One case of the `scale` kernels, `x = 0, 1, 2, ...`.
pub struct Scale {
    pub in_two_steps: Kernel,
    pub in_one_step: Kernel,
    pub off_by_one_element: Kernel,
    /// `in_one_step`, but element 100 is never written.
    pub skips_one_element: Kernel,
    output: wgpu::Buffer,
    workgroups: u32,
}

impl GpuInput for Scale {
    type Element = f32;

    fn output(&self) -> &wgpu::Buffer {
        &self.output
    }
}

/// `elements` (a multiple of 64) values to scale; the output buffer takes
/// `output_usage` besides `STORAGE`.
pub fn scale(gpu: &Gpu, elements: u32, output_usage: wgpu::BufferUsages) -> Scale {
    let device = gpu.device();
    let x: Vec<u8> = (0..elements)
        .flat_map(|i| (i as f32).to_ne_bytes())
        .collect();
    let x = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("scale: x"),
        contents: &x,
        usage: wgpu::BufferUsages::STORAGE,
    });
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("scale: y"),
        size: u64::from(elements) * 4,
        usage: wgpu::BufferUsages::STORAGE | output_usage,
        mapped_at_creation: false,
    });
    let factors = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("scale: factors"),
        contents: &[0.1_f32, 3.0, 0.3].map(f32::to_ne_bytes).concat(),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let kernel = |entry_point| {
        let pipeline = pipeline(gpu, SCALE, entry_point);
        Kernel {
            bindings: bind_group(gpu, &pipeline, &[&x, &output, &factors]),
            pipeline,
        }
    };
    Scale {
        in_two_steps: kernel("in_two_steps"),
        in_one_step: kernel("in_one_step"),
        off_by_one_element: kernel("off_by_one_element"),
        skips_one_element: kernel("skips_one_element"),
        output,
        workgroups: elements / 64,
    }
}

/// Dispatches `kernel` over its case.
pub fn scale_with(pass: &mut wgpu::ComputePass<'_>, case: &Scale, kernel: &Kernel) {
    pass.set_pipeline(&kernel.pipeline);
    pass.set_bind_group(0, &kernel.bindings, &[]);
    pass.dispatch_workgroups(case.workgroups, 1, 1);
}

/// A read-write storage buffer the kernels' results are read back from.
fn storage(gpu: &Gpu, size: u64) -> wgpu::Buffer {
    gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("output"),
        size,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn pipeline(gpu: &Gpu, source: &str, entry_point: &str) -> wgpu::ComputePipeline {
    let device = gpu.device();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(entry_point),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry_point),
        layout: None,
        module: &module,
        entry_point: Some(entry_point),
        compilation_options: wgpu::PipelineCompilationOptions::default(),
        cache: None,
    })
}

/// Group 0 of `pipeline`, binding each buffer at its position.
fn bind_group(
    gpu: &Gpu,
    pipeline: &wgpu::ComputePipeline,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
        .iter()
        .enumerate()
        .map(|(binding, buffer)| wgpu::BindGroupEntry {
            binding: binding as u32,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}
