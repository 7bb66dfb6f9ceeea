//! Command-line front end for tests and debugging. One function per subcommand; add new ones to `SUBCOMMANDS`.

use msad::diag::SourceFile;
use msad::syntax;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

type Subcommand = fn(&[String]) -> Result<(), String>;

const SUBCOMMANDS: [(&str, &str, Subcommand); 1] =
    [("parse", "parse FILE [--print] | parse --summary DIR", parse_command)];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((_, _, run)) = args.first().and_then(|name| SUBCOMMANDS.iter().find(|(n, _, _)| n == name)) else {
        eprintln!("usage:");
        for (_, usage, _) in SUBCOMMANDS {
            eprintln!("  msad {usage}");
        }
        return ExitCode::from(2);
    };
    match run(&args[1..]) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn read_source(path: &Path) -> Result<std::sync::Arc<SourceFile>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(SourceFile::new(path, String::from_utf8_lossy(&bytes).into_owned()))
}

fn parse_command(args: &[String]) -> Result<(), String> {
    match args {
        [flag, dir] if flag == "--summary" => summary(Path::new(dir)),
        [path] => {
            let file = syntax::parse(&read_source(Path::new(path))?).map_err(|d| d.to_string())?;
            println!("{file:#?}");
            Ok(())
        }
        [path, flag] | [flag, path] if flag == "--print" => {
            let file = syntax::parse(&read_source(Path::new(path))?).map_err(|d| d.to_string())?;
            print!("{}", syntax::printer::print_file(&file));
            Ok(())
        }
        _ => Err("usage: msad parse FILE [--print] | msad parse --summary DIR".into()),
    }
}

/// Parses every `.m` file under `dir`; prints the failures, the success count and the throughput.
fn summary(dir: &Path) -> Result<(), String> {
    let sources = syntax::find_m_files(dir).iter().map(|p| read_source(p)).collect::<Result<Vec<_>, _>>()?;
    let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
    let started = Instant::now();
    let failures: Vec<_> = sources.iter().filter_map(|s| syntax::parse(s).err()).collect();
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    for failure in &failures {
        let (path, line, col) = failure.position().unwrap_or_default();
        let message = failure.message.lines().next().unwrap_or_default();
        println!("{path}:{line}:{col}: {message}");
    }
    let total = sources.len();
    println!("parsed {} of {} files", total - failures.len(), total);
    println!(
        "{:.0} files/s, {:.1} MB/s ({:.1} ms for {:.2} MB)",
        total as f64 / seconds,
        bytes as f64 / 1e6 / seconds,
        seconds * 1e3,
        bytes as f64 / 1e6
    );
    Ok(())
}
