//! Perft speed on CwDA start positions: single-threaded perft with bulk counting, and the
//! rayon-parallel perft, reported as nodes per second (criterion's element throughput).
//! Run with `cargo bench --bench perft`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use panoply::games;
use panoply::movegen::perft::{perft, perft_parallel};
use panoply::movegen::tables::Tables;
use panoply::position::fen;
use std::time::Duration;

/// Pairings chosen to cover every army on both sides.
const PAIRINGS: [&str; 4] = [
    "chess",
    "cwda-clobberers-nutty",
    "cwda-rookies-fide",
    "cwda-nutty-rookies",
];
const DEPTH: u32 = 4;

fn perft_start_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for name in PAIRINGS {
        let t: Tables<u64> = Tables::new(games::by_name(name).expect("known variant"));
        let pos = fen::parse(&t, &t.variant.start_position).expect("start position");
        let nodes = perft(&t, &pos, DEPTH);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("1-thread", name), &DEPTH, |b, &d| {
            b.iter(|| perft(&t, &pos, d))
        });
        group.bench_with_input(BenchmarkId::new("parallel", name), &DEPTH, |b, &d| {
            b.iter(|| perft_parallel(&t, &pos, d))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_start_positions);
criterion_main!(benches);
