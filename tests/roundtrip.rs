//! Parse -> print -> parse gives the same tree (modulo spans) for every file of a corpus that parses.

use msad::diag::SourceFile;
use msad::syntax::{find_m_files, parse, printer::print_file, without_spans};
use std::path::Path;

const OCTAVE_LIBRARY: &str = "/usr/share/octave/7.3.0/m";

/// Round-trips every parsing `.m` file under `dir`; returns (files round-tripped, failures).
fn round_trip_dir(dir: &Path) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in find_m_files(dir) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let Ok(tree) = parse(&SourceFile::new(&path, text)) else { continue };
        let printed = print_file(&tree);
        match parse(&SourceFile::new("<printed>", printed.clone())) {
            Ok(reparsed) if without_spans(&reparsed) == without_spans(&tree) => checked += 1,
            Ok(_) => failures.push(format!("{}: printed text parses to a different tree", path.display())),
            Err(error) => failures.push(format!("{}: printed text does not parse: {error}", path.display())),
        }
    }
    (checked, failures)
}

fn assert_round_trips(dir: &Path) {
    if !dir.is_dir() {
        eprintln!("note: {} is absent; round trip not checked", dir.display());
        return;
    }
    let (checked, failures) = round_trip_dir(dir);
    eprintln!("{}: {checked} files round-trip", dir.display());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn octave_library_round_trips() {
    assert_round_trips(Path::new(OCTAVE_LIBRARY));
}

#[test]
fn repository_files_round_trip() {
    assert_round_trips(Path::new(env!("CARGO_MANIFEST_DIR")));
}
