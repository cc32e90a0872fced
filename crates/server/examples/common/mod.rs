//! What the load and floor examples share: their flags and the CPU time they read from `/proc`.

#![allow(dead_code, clippy::print_stderr)]

/// Ends the run with `message`, prefixed with the program's name, and exit status 2.
pub fn fail(message: &str) -> ! {
    let program = std::env::args().next().unwrap_or_default();
    let name = std::path::Path::new(&program).file_name().and_then(|n| n.to_str()).unwrap_or("example");
    eprintln!("{name}: {message}");
    std::process::exit(2);
}

/// The value of `--name`, or `default`; a value that is not a whole number in `range`, or the
/// flag given twice, ends the run with a message naming the flag.
pub fn number(name: &str, default: u64, range: std::ops::RangeInclusive<u64>) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().filter(|a| *a == name).count() > 1 {
        fail(&format!("{name} is given twice"));
    }
    let Some(i) = args.iter().position(|a| a == name) else { return default };
    let Some(text) = args.get(i + 1) else { fail(&format!("{name} needs a value")) };
    match text.parse::<u64>() {
        Ok(n) if range.contains(&n) => n,
        _ => fail(&format!("{name} must be a whole number from {} to {}, got {text:?}", range.start(), range.end())),
    }
}

/// The CPU time process `pid` (or `"self"`) has used, user and system, every thread:
/// milliseconds, in the kernel's 10 ms ticks (`CLK_TCK` is 100 on Linux). `None` when the
/// process is gone.
pub fn cpu_ms(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 1000.0 / 100.0)
}
