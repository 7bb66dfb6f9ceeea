//! Lexer + parser + printer on arbitrary text: no panic, no hang, and whatever parses prints to text that
//! parses back to the same tree.
//!
//! Only stable Rust is installed, so from `fuzz/`:
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run -s none parse WORK_DIR corpus/parse -- -max_total_time=600`
//! (new inputs go to WORK_DIR; `corpus/parse` holds the committed seeds).

#![no_main]

use libfuzzer_sys::fuzz_target;
use msad::diag::SourceFile;
use msad::syntax::{parse, printer::print_file, without_spans};

fuzz_target!(|data: &[u8]| {
    let file = SourceFile::new("fuzz.m", String::from_utf8_lossy(data).into_owned());
    match parse(&file) {
        Ok(tree) => {
            let printed = print_file(&tree);
            let reparsed = parse(&SourceFile::new("printed.m", printed.clone()))
                .unwrap_or_else(|error| panic!("printed text does not parse: {error}\n{printed}"));
            assert_eq!(without_spans(&reparsed), without_spans(&tree), "printed:\n{printed}");
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
