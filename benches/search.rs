//! Search speed: each position of `panoply bench`'s search list searched to a fixed depth on
//! one thread with a fresh table, reported as nodes per second (criterion's element
//! throughput). The node count of a position is fixed, so a change that alters the tree
//! changes the throughput's element count too: compare nodes per second, not time. A sample
//! also builds the variant's tables and a fresh 16 MB hash table, as `panoply bench` does: a
//! fixed cost that dilutes a difference in search speed but does not favour either side.
//! Run with `cargo bench --bench search`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use panoply::search::bench::{positions, run_one};
use std::time::Duration;

/// Deep enough for pruning and reductions to shape the tree, shallow enough for criterion's
/// ten samples per position to take seconds, not minutes.
const DEPTH: u32 = 7;

fn search_bench_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (index, (variant, _, moves)) in positions().into_iter().enumerate() {
        let nodes = run_one(index, DEPTH).expect("bench position").nodes;
        group.throughput(Throughput::Elements(nodes));
        let label = format!(
            "{index}-{variant}{}",
            if moves.is_empty() { "" } else { "-line" }
        );
        group.bench_with_input(
            BenchmarkId::new(format!("depth-{DEPTH}"), label),
            &index,
            |b, &i| b.iter(|| run_one(i, DEPTH).expect("bench position").nodes),
        );
    }
    group.finish();
}

criterion_group!(benches, search_bench_positions);
criterion_main!(benches);
