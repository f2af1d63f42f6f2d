//! Two GPU kernels compared on the GPU's own timestamps, run with:
//!
//! ```text
//! cargo run --release --features gpu --example gpu_matmul
//! ```
//!
//! A naive matrix multiply (every invocation reads a row of A and a column
//! of B from memory for one element of C) against a tiled one (a workgroup
//! stages tiles of A and B in workgroup-shared memory, and each invocation
//! computes a 4×4 block of C from them), in WGSL, on three sizes. Both are
//! checked against each other within a tolerance before any timing, then
//! timed interleaved; the report gives the verdict and GFLOP/s.
//!
//! On a machine without a GPU, Mesa's lavapipe runs the shaders on the CPU
//! (`apt-get install -y mesa-vulkan-drivers`), where workgroup memory is
//! plain memory and a barrier switches between the workgroup's invocations:
//! there the tiled kernel is the slower one. What wins depends on the
//! device, so this example reports its verdict (`expect = report`) rather
//! than asserting one; in your own tests leave `expect` out, so a kernel
//! that stops being faster on your GPU fails the build.
//!
//! In a library you would write `#[cfg_attr(test, faster::compare_gpu(...))]`
//! and run `cargo test --release --features gpu`; an example has no tests,
//! so here the attribute is unconditional and `faster::main()` runs it.

use faster::gpu::{Gpu, GpuInput, wgpu};
use wgpu::util::DeviceExt;

const MATMUL: &str = r#"
struct Dims { n: u32 }
@group(0) @binding(0) var<uniform> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn naive(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = dims.n;
    if (id.x >= n || id.y >= n) { return; }
    var sum = 0.0;
    for (var k = 0u; k < n; k++) {
        sum += a[id.y * n + k] * b[k * n + id.x];
    }
    c[id.y * n + id.x] = sum;
}

// A workgroup of 16×16 invocations computes a 64×64 block of C, each
// invocation 4×4 of it, from 64×16 and 16×64 tiles of A and B staged in
// workgroup memory: every value read from memory serves 64 products.
const TILE: u32 = 16u;
const BLOCK: u32 = 64u;
var<workgroup> tile_a: array<array<f32, 16>, 64>;
var<workgroup> tile_b: array<array<f32, 64>, 16>;

@compute @workgroup_size(16, 16)
fn tiled(@builtin(workgroup_id) group: vec3<u32>,
         @builtin(local_invocation_id) local: vec3<u32>) {
    let n = dims.n;
    let row0 = group.y * BLOCK + local.y * 4u;
    let col0 = group.x * BLOCK + local.x * 4u;
    var acc: array<array<f32, 4>, 4>;
    for (var t = 0u; t < n; t += TILE) {
        // Four elements of each tile per invocation (zero past the edge).
        for (var i = 0u; i < 4u; i++) {
            let a_row = row0 + i;
            let a_col = t + local.x;
            var staged_a = 0.0;
            if (a_row < n && a_col < n) { staged_a = a[a_row * n + a_col]; }
            tile_a[local.y * 4u + i][local.x] = staged_a;
            let b_row = t + local.y;
            let b_col = col0 + i;
            var staged_b = 0.0;
            if (b_row < n && b_col < n) { staged_b = b[b_row * n + b_col]; }
            tile_b[local.y][local.x * 4u + i] = staged_b;
        }
        workgroupBarrier();
        for (var k = 0u; k < TILE; k++) {
            for (var i = 0u; i < 4u; i++) {
                let a_ik = tile_a[local.y * 4u + i][k];
                for (var j = 0u; j < 4u; j++) {
                    acc[i][j] += a_ik * tile_b[k][local.x * 4u + j];
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            if (row0 + i < n && col0 + j < n) { c[(row0 + i) * n + col0 + j] = acc[i][j]; }
        }
    }
}
"#;

/// One size: A, B and C = A·B on the device, and both kernels' pipelines.
struct Matmul {
    n: u32,
    naive: wgpu::ComputePipeline,
    tiled: wgpu::ComputePipeline,
    bindings: wgpu::BindGroup,
    c: wgpu::Buffer,
}

impl GpuInput for Matmul {
    type Element = f32;

    fn output(&self) -> &wgpu::Buffer {
        &self.c
    }

    fn label(&self) -> Option<String> {
        Some(format!("{0}×{0}", self.n))
    }
}

fn matmul_naive(pass: &mut wgpu::ComputePass<'_>, case: &Matmul) {
    pass.set_pipeline(&case.naive);
    pass.set_bind_group(0, &case.bindings, &[]);
    pass.dispatch_workgroups(case.n.div_ceil(16), case.n.div_ceil(16), 1);
}

#[faster::compare_gpu(
    original = matmul_naive,
    inputs = matmul_cases,
    expect = report,
    check = approx(1e-4, 1e-5),
    flops = matmul_flops,
    bytes = matmul_bytes,
)]
fn matmul_tiled(pass: &mut wgpu::ComputePass<'_>, case: &Matmul) {
    pass.set_pipeline(&case.tiled);
    pass.set_bind_group(0, &case.bindings, &[]);
    pass.dispatch_workgroups(case.n.div_ceil(64), case.n.div_ceil(64), 1);
}

/// A multiply and an add per term: 2·n³.
fn matmul_flops(case: &Matmul) -> u64 {
    2 * u64::from(case.n).pow(3)
}

/// What must move at least once: A and B read, C written.
fn matmul_bytes(case: &Matmul) -> u64 {
    3 * 4 * u64::from(case.n).pow(2)
}

fn matmul_cases(gpu: &Gpu) -> Vec<Matmul> {
    let device = gpu.device();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("matmul"),
        source: wgpu::ShaderSource::Wgsl(MATMUL.into()),
    });
    // One layout for both kernels, so one bind group serves both.
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("matmul"),
        entries: &[
            entry(0, wgpu::BufferBindingType::Uniform),
            entry(1, storage(true)),
            entry(2, storage(true)),
            entry(3, storage(false)),
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("matmul"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = |entry_point| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry_point),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry_point),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            cache: None,
        })
    };
    let (naive, tiled) = (pipeline("naive"), pipeline("tiled"));

    [128, 192, 256]
        .into_iter()
        .map(|n: u32| {
            let init = |label, contents: &[u8], usage| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents,
                    usage,
                })
            };
            let matrix = |seed: u32| -> Vec<u8> {
                (0..n * n)
                    .flat_map(|i| (((i * 7 + seed) % 17) as f32 / 17.0 - 0.5).to_ne_bytes())
                    .collect()
            };
            let dims = init("dims", &n.to_ne_bytes(), wgpu::BufferUsages::UNIFORM);
            let a = init("a", &matrix(3), wgpu::BufferUsages::STORAGE);
            let b = init("b", &matrix(5), wgpu::BufferUsages::STORAGE);
            let c = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("c"),
                size: 4 * u64::from(n * n),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let bindings = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("matmul"),
                layout: &layout,
                entries: &[&dims, &a, &b, &c]
                    .iter()
                    .enumerate()
                    .map(|(binding, buffer)| wgpu::BindGroupEntry {
                        binding: binding as u32,
                        resource: buffer.as_entire_binding(),
                    })
                    .collect::<Vec<_>>(),
            });
            Matmul {
                n,
                naive: naive.clone(),
                tiled: tiled.clone(),
                bindings,
                c,
            }
        })
        .collect()
}

fn main() {
    faster::main()
}
