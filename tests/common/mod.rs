//! What the end-to-end tests share: a scratch folder and the real `bailab` binary run in it.
#![allow(dead_code)] // each test file uses its own subset

pub mod nets;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A unique scratch folder under the system temp dir, removed when dropped (also when a test
/// fails).
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty folder named after the test.
    pub fn new(test: &str) -> Scratch {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "bailab-test-{test}-{}-{nanos}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    /// A path inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `name` (creating its folders) and returns its path as a string.
    pub fn write(&self, name: &str, text: &str) -> String {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, text).expect("write file");
        p.to_str().expect("utf-8 temp path").to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `bailab` command in `cwd`, without standard input.
pub fn command(cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_bailab"));
    c.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Runs bailab in `cwd` and waits for it.
pub fn bailab(cwd: &Path, args: &[&str]) -> Output {
    command(cwd, args).output().expect("bailab runs")
}

/// Runs bailab in `cwd` with `input` (if any) on its standard input, and waits for it.
pub fn bailab_with_input(cwd: &Path, args: &[&str], input: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = command(cwd, args)
        .stdin(Stdio::piped())
        .spawn()
        .expect("bailab starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    if let Some(text) = input {
        stdin.write_all(text.as_bytes()).expect("write stdin");
    }
    drop(stdin);
    child.wait_with_output().expect("bailab runs")
}

/// Starts bailab in `cwd` without waiting.
pub fn spawn(cwd: &Path, args: &[&str]) -> Child {
    command(cwd, args).spawn().expect("bailab starts")
}

/// Runs bailab and fails the test (with its stderr) unless it succeeds.
pub fn ok(cwd: &Path, args: &[&str]) -> Output {
    let o = bailab(cwd, args);
    assert!(o.status.success(), "bailab {args:?} failed: {}", stderr(&o));
    o
}

/// Runs bailab expecting a failure without a panic; returns its stderr.
pub fn fails(cwd: &Path, args: &[&str]) -> String {
    let o = bailab(cwd, args);
    assert!(!o.status.success(), "bailab {args:?} succeeded");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{args:?}: a panic: {err}");
    err
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Waits until `path` exists (or the child ends, or a minute passes).
pub fn wait_for(path: &Path, child: &mut Child) {
    let began = Instant::now();
    while !path.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "the run ended ({status}) before {} appeared",
                path.display()
            );
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no {} after a minute",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A file's bytes; a missing file fails the test naming it.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Asserts that the result folders `a` and `b` hold the same bytes in each of `names`, and that
/// none of them is empty in `a`.
pub fn assert_same_files(a: &Path, b: &Path, names: &[&str]) {
    for name in names {
        let (x, y) = (read(&a.join(name)), read(&b.join(name)));
        assert!(!x.is_empty(), "{} is empty", a.join(name).display());
        assert!(
            x == y,
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}
