//! Running the `mahjong-referee` binary in tests, shared by the CLI test files.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs the binary with these arguments.
pub fn referee(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary with these arguments and this standard input.
pub fn referee_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let output = child.wait_with_output().expect("the binary finishes");
    // A run that exits before reading its input (a refused flag) closes the pipe: that
    // write fails with BrokenPipe, and is no failure of the test.
    match writer.join().expect("writer thread") {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => panic!("stdin not written: {e}"),
    }
    output
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// The fields of a line, split on runs of two or more spaces.
pub fn cells(line: &str) -> Vec<&str> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}
