//! Command-line front end for tests and debugging. One function per subcommand; add new ones to `SUBCOMMANDS`.

use msad::analysis::inline_calls;
use msad::diag::SourceFile;
use msad::engine::{Engine, JacobianStorage, Options, PathHost, Request};
use msad::ir::program::Loader;
use msad::syntax;
use msad::value::{Array, FunctionHandle, Value};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

type Subcommand = fn(&[String]) -> Result<(), String>;

const SUBCOMMANDS: [(&str, &str, Subcommand); 3] = [
    ("parse", "parse FILE [--print] | parse --summary DIR", parse_command),
    ("ir", "ir FILE.m  (SSA of the function and every function it calls, small calls inlined)", ir_command),
    (
        "jacobian",
        "jacobian FILE.m X1,X2,... [--full|--sparse] [--repeat N] (value, Jacobian, the engine's log; N more calls timed)",
        jacobian_command,
    ),
];

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

/// A host that finds functions beside `file` and the function name `file` defines.
fn host_for(file: &str) -> Result<(PathHost, String), String> {
    let path = Path::new(file);
    let name = path.file_stem().and_then(|s| s.to_str()).ok_or_else(|| format!("{file}: not a .m file"))?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok((PathHost { dirs: vec![dir.to_path_buf()] }, name.to_string()))
}

fn ir_command(args: &[String]) -> Result<(), String> {
    let [file] = args else { return Err("usage: msad ir FILE.m".into()) };
    let (mut host, name) = host_for(file)?;
    let mut program = Loader::new(&mut host).load_named(&name).map_err(|d| d.to_string())?;
    inline_calls(&mut program);
    print!("{program}");
    Ok(())
}

fn jacobian_command(args: &[String]) -> Result<(), String> {
    let usage = "usage: msad jacobian FILE.m X1,X2,... [--full|--sparse] [--repeat N]";
    let (file, x, mut flags) = match args {
        [file, x, flags @ ..] => (file, x, flags),
        _ => return Err(usage.into()),
    };
    let mut repeat = 0;
    if let [rest @ .., flag, count] = flags
        && flag == "--repeat"
    {
        repeat = count.parse::<usize>().map_err(|e| format!("--repeat {count}: {e}"))?;
        flags = rest;
    }
    let x: Vec<f64> = x.split(',').map(|v| v.trim().parse::<f64>().map_err(|e| format!("{v}: {e}"))).collect::<Result<_, _>>()?;
    let jacobian = match flags {
        [] => JacobianStorage::Auto,
        [f] if f == "--full" => JacobianStorage::Full,
        [f] if f == "--sparse" => JacobianStorage::Sparse,
        _ => return Err(usage.into()),
    };
    let (mut host, name) = host_for(file)?;
    let request = Request {
        function: FunctionHandle::Named(name),
        args: vec![Value::Double(Array::column(x))],
        options: Options { jacobian, ..Options::default() },
        nargout: 2,
    };
    let mut engine = Engine::new();
    let result = engine.evaluate(&mut host, &request).map_err(|d| format!("{}: {d}", d.identifier()))?;
    result.log.iter().for_each(|line| println!("{line}"));
    if repeat > 0 {
        let started = Instant::now();
        for _ in 0..repeat {
            engine.evaluate(&mut host, &request).map_err(|d| d.to_string())?;
        }
        println!("{repeat} more calls: {:.2} us per call", started.elapsed().as_secs_f64() * 1e6 / repeat as f64);
    }
    println!("f =");
    print_matrix(&result.value);
    println!("J =");
    print_matrix(result.jacobian.as_ref().expect("requested"));
    Ok(())
}

fn print_matrix(v: &Value) {
    match v {
        Value::Sparse(s) => {
            for j in 0..s.ncols() {
                for k in s.colptr()[j]..s.colptr()[j + 1] {
                    println!("  ({}, {})  {:.15e}", s.rowind()[k] + 1, j + 1, s.values()[k]);
                }
            }
        }
        other => {
            let a = other.numeric().expect("numeric result");
            for i in 0..a.rows() {
                let row: Vec<String> = (0..a.cols()).map(|j| format!("{:>22.15e}", a.data[i + j * a.rows()])).collect();
                println!("  {}", row.join(" "));
            }
        }
    }
}
