//! A running `madang serve` for the crash tests: the real binary on a data directory, killed
//! with SIGKILL on purpose (`kill`) or on drop.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `madang serve --allow-fixed-seed` on a free loopback port.
pub struct Serve {
    child: Child,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base: String,
}

impl Serve {
    /// Starts the server on `dir` and waits for the URL it prints.
    #[allow(dead_code)]
    pub fn start(dir: &Path) -> Serve {
        Serve::start_with(dir, &[])
    }

    /// [`Serve::start`] with more arguments (a database, a node URL).
    pub fn start_with(dir: &Path, more: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_madang"))
            .args(["serve", "--bind", "127.0.0.1:0", "--allow-fixed-seed", "--data-dir"])
            .arg(dir)
            .args(more)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // "madang is serving on http://127.0.0.1:PORT/ …"
        let url =
            line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("no URL in {line:?}"));
        Serve { child, base: url.trim_end_matches('/').to_owned() }
    }

    /// SIGKILL: no shutdown, no flush.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then waits for the process to end (a clean shutdown).
    #[allow(dead_code)]
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
        self.child.wait().unwrap()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
