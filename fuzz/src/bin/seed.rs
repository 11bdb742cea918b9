//! Writes the starting corpora of the fuzz targets: `cargo run --release --bin seed -- DIR`.

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus".to_string());
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match fairy_fuzz::write_seeds(&project, std::path::Path::new(&dir)) {
        Ok(count) => println!("{count} seeds written under {dir}"),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    }
}
