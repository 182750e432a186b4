fn main() {
    let dir = std::path::PathBuf::from("games/example-complete");
    let t = std::time::Instant::now();
    for _ in 0..50 {
        let _ = twilight_pbem::log::Log::open(dir.join("log.yaml")).unwrap();
    }
    println!("Log::open: {:.2} ms", t.elapsed().as_secs_f64() * 1000.0 / 50.0);
    let t = std::time::Instant::now();
    for _ in 0..50 {
        let _ = twilight_pbem::session::Session::open_public(&dir).unwrap();
    }
    println!("Session::open_public: {:.2} ms", t.elapsed().as_secs_f64() * 1000.0 / 50.0);
}
