//! The parser fuzz campaign, bounded for CI and runnable on stable Rust: the seeds of fuzz/corpus/parse
//! and Octave's own m-library (when installed) are mutated (spans deleted, duplicated, swapped, tokens
//! inserted, text truncated) and each result goes through lexer, parser and printer. No input may
//! panic, and whatever parses must print to text that parses back to the same tree (the oracle of
//! fuzz/fuzz_targets/parse.rs). MSAD_FUZZ_SECONDS (default 8) bounds the time; MSAD_FUZZ_SEED picks
//! the mutations. A failure prints the input.

mod common;

use msad::diag::SourceFile;
use msad::syntax::{parse, printer::print_file, without_spans};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Fragments the mutations insert: the tokens where lexers and parsers keep their special cases.
const TOKENS: &[&str] = &[
    "end",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "...\n",
    "%{\n",
    "\n%}\n",
    "#",
    "if ",
    "else\n",
    "function ",
    "@",
    "@(x) ",
    ".^",
    ".'",
    "\n",
    ";",
    ",",
    "=",
    "==",
    "~",
    "!",
    "&&",
    "||",
    ":",
    "1e",
    "0x1F",
    "1i",
    "..",
    "\\",
    "\t",
    " ",
    "for k = 1:3\n",
    "while ",
    "switch x\ncase 1\n",
    "try\n",
    "catch e\n",
    "unwind_protect\n",
    "endfunction\n",
    "x(end)",
    "c{:}",
    "s.(f)",
    "a.b.c",
    "[1, 2; 3 4]",
    "{1, 'a'}",
    "-",
    "+",
    "*",
    "/",
];

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn m_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            m_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "m") {
            into.push(path);
        }
    }
}

/// The seeds: the committed corpus and Octave's m-library.
fn seeds() -> Vec<String> {
    let mut files = Vec::new();
    m_files(&common::repo_path("fuzz/corpus/parse"), &mut files);
    if let Ok(installed) = std::fs::read_dir("/usr/share/octave") {
        for version in installed.filter_map(|e| e.ok()) {
            m_files(&version.path().join("m"), &mut files);
        }
    }
    files.iter().filter_map(|f| std::fs::read(f).ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).collect()
}

/// A char boundary of `text` at or below byte `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn span(rng: &mut Rng, text: &str) -> (usize, usize) {
    let start = boundary(text, rng.below(text.len() + 1));
    let end = boundary(text, start + rng.below(64));
    (start, end.max(start))
}

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut text = seed.to_string();
    for _ in 0..1 + rng.below(4) {
        let (start, end) = span(rng, &text);
        text = match rng.below(5) {
            0 => format!("{}{}", &text[..start], &text[end..]),
            1 => format!("{}{}{}", &text[..end], &text[start..end], &text[end..]),
            2 => format!("{}{}{}", &text[..start], TOKENS[rng.below(TOKENS.len())], &text[start..]),
            3 => text[..start].to_string(),
            _ => {
                let (other, other_end) = span(rng, &text);
                let piece = text[other..other_end].to_string();
                format!("{}{}{}", &text[..start], piece, &text[end..])
            }
        };
    }
    text
}

/// The oracle: what fails on `text`, if anything.
fn failure(text: &str) -> Option<String> {
    let outcome = std::panic::catch_unwind(|| {
        let Ok(tree) = parse(&SourceFile::new("fuzz.m", text.to_string())) else { return None };
        let printed = print_file(&tree);
        match parse(&SourceFile::new("printed.m", printed.clone())) {
            Err(error) => Some(format!("printed text does not parse: {error}\n--- printed:\n{printed}")),
            Ok(reparsed) if without_spans(&reparsed) != without_spans(&tree) => {
                Some(format!("printed text parses to another tree\n--- printed:\n{printed}"))
            }
            Ok(_) => None,
        }
    });
    outcome.unwrap_or_else(|_| Some("panic".to_string()))
}

#[test]
fn mutated_sources_never_panic_and_round_trip_through_the_printer() {
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seeds in fuzz/corpus/parse");
    let budget = Duration::from_secs(env_number("MSAD_FUZZ_SECONDS", 8));
    let mut rng = Rng(env_number("MSAD_FUZZ_SEED", 1));
    let started = Instant::now();
    let (mut tried, mut failures) = (0usize, Vec::new());
    // Quiet panics: each one is reported below with its input.
    std::panic::set_hook(Box::new(|_| {}));
    while started.elapsed() < budget && failures.len() < 5 {
        let seed = &seeds[rng.below(seeds.len())];
        let text = if tried < seeds.len() { seeds[tried].clone() } else { mutate(&mut rng, seed) };
        tried += 1;
        if let Some(why) = failure(&text) {
            failures.push(format!("{why}\n--- input:\n{text}"));
        }
    }
    let _ = std::panic::take_hook();
    println!("parser fuzz: {tried} inputs from {} seeds, {} failures", seeds.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n=====\n\n"));
}
