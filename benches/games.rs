//! Whole-game benchmarks: complete self-played games and full verification of a
//! complete sealed game log. Run with `cargo bench --bench games`.

use std::path::PathBuf;

use twilight_pbem::archive::verify_game;
use twilight_pbem::engine::selfplay::{play_one_with, Policy};
use twilight_pbem::engine::Options;
use twilight_pbem::log::verify_chain;

fn main() {
    divan::main();
}

/// One complete game from the standard setup with uniformly random legal decisions (seeds
/// cycle so that every sample is a different game).
#[divan::bench(sample_count = 200)]
fn random_game_uniform(bencher: divan::Bencher) {
    let options = Options::default();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        play_one_with(seed, &options, Policy::Uniform).expect("game completes")
    });
}

/// One complete game with the careful random policy (longer games, most reach the Late War).
#[divan::bench(sample_count = 20)]
fn random_game_careful(bencher: divan::Bencher) {
    let options = Options::default();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        play_one_with(seed, &options, Policy::Careful).expect("game completes")
    });
}

/// Full verification of `games/example-complete` (348 decisions, seed revealed): the hash
/// chain, every entry, and a replay re-deriving every shuffle, roll and commitment.
#[divan::bench(sample_count = 50)]
fn verify_complete_sealed_game(bencher: divan::Bencher) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
    bencher.bench_local(|| {
        let r = verify_game(&dir, None);
        assert!(r.findings.is_empty());
        r
    });
}

/// The floor `verify_complete_sealed_game` is measured against (benches/README.md): the same
/// log's bytes split into documents, each SHA-256 hashed and parsed into an entry, with the
/// chain rules (`verify_chain`), and no replay. `verify` should cost at most 1.5 times this.
#[divan::bench(sample_count = 50)]
fn parse_and_hash_complete_sealed_game(bencher: divan::Bencher) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/example-complete/log.yaml");
    bencher.bench_local(|| {
        let bytes = std::fs::read(&path).expect("log");
        let r = verify_chain(&bytes, None);
        assert!(r.is_clean());
        r
    });
}
