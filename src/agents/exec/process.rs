//! One running agent process: it is sent a JSON line and answers one, within a time limit; its
//! standard error goes to a log (a file, or bailab's own standard error) and its last lines are
//! kept for error messages. The deciding thread waits for the answer itself (poll(2) with the
//! time left), so a round trip costs the two processes' wake-ups and nothing more.

use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest answer line, in bytes: a longer one is an error, not a memory hog.
const MAX_LINE: usize = 1 << 20;

/// The stderr lines of an agent process kept for error messages.
const STDERR_LINES: usize = 8;

/// How long a process that was told to stop (its input closed) may take to end before it is
/// killed.
const GRACE: Duration = Duration::from_millis(200);

/// Where an agent process's standard error goes.
#[derive(Clone, Debug)]
pub enum StderrLog {
    /// Appended to this file, each line marked with the process id.
    File(PathBuf),
    /// To bailab's own standard error, each line marked with the process id.
    Terminal,
}

impl StderrLog {
    /// Writes one line of the process `pid`.
    pub fn write(&self, pid: u32, line: &str) {
        self.write_marked(&format!("pid {pid}"), line);
    }
    /// Writes one line of bailab's own about its agents (starts, restarts) to a log file; the
    /// terminal is spared them.
    pub fn note(&self, line: &str) {
        if let StderrLog::File(_) = self {
            self.write_marked("bailab", line);
        }
    }
    fn write_marked(&self, mark: &str, line: &str) {
        let text = format!("[{mark}] {line}\n");
        match self {
            StderrLog::File(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path);
                // One write per line: lines of processes sharing the file stay whole.
                if let Ok(mut f) = file {
                    let _ = f.write_all(text.as_bytes());
                }
            }
            StderrLog::Terminal => eprint!("{text}"),
        }
    }
}

/// A running agent process: its input, its output lines and its last stderr lines.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// What the process wrote that is not yet an answer (no end of line yet).
    pending: Vec<u8>,
    /// The message being sent (kept to reuse its memory).
    out: Vec<u8>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: std::thread::JoinHandle<()>,
    /// Whether the process was found ended (crashed, or closed its output).
    pub gone: bool,
}

impl Process {
    /// Starts `command` (a program and its arguments) in `cwd`, its stderr to `log`.
    pub fn start(command: &[String], cwd: Option<&Path>, log: &StderrLog) -> Result<Self, String> {
        let mut line = Command::new(&command[0]);
        line.args(&command[1..]);
        if let Some(dir) = cwd {
            line.current_dir(dir);
        }
        let mut child = line
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start `{}`: {e}", command.join(" ")))?;
        log.note(&format!(
            "started `{}` as pid {}",
            command.join(" "),
            child.id()
        ));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let (kept, log, pid) = (Arc::clone(&stderr), log.clone(), child.id());
        let errors = BufReader::new(child.stderr.take().expect("piped"));
        let stderr_reader = std::thread::spawn(move || {
            for line in errors.lines().map_while(Result::ok) {
                log.write(pid, &line);
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        Ok(Process {
            child,
            stdin,
            stdout,
            pending: Vec::new(),
            out: Vec::new(),
            stderr,
            stderr_reader,
            gone: false,
        })
    }

    /// Sends one message that needs no answer, in one write.
    pub fn tell(&mut self, message: &Value) -> Result<(), String> {
        self.tell_with(|out| serde_json::to_writer(out, message).expect("a JSON value writes"))
    }

    /// Sends one message that needs no answer, its JSON text appended by `write` to an empty
    /// reused buffer (no end of line), in one write.
    pub fn tell_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), String> {
        self.out.clear();
        write(&mut self.out);
        self.out.push(b'\n');
        let stdin = self.stdin.as_mut().expect("open until dropped");
        stdin.write_all(&self.out).map_err(|_| self.ended())
    }

    /// Sends one message and reads one JSON reply within `timeout`.
    pub fn ask(&mut self, message: &Value, timeout: Duration) -> Result<Value, String> {
        let write = |out: &mut Vec<u8>| {
            serde_json::to_writer(out, message).expect("a JSON value writes");
        };
        self.ask_with(write, timeout)
    }

    /// Sends one message written as in [`Process::tell_with`] and reads one JSON reply within
    /// `timeout`.
    pub fn ask_with(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>),
        timeout: Duration,
    ) -> Result<Value, String> {
        self.tell_with(write)?;
        let line = self.line(Instant::now() + timeout, timeout)?;
        let line = String::from_utf8_lossy(&line);
        serde_json::from_str(&line)
            .map_err(|e| format!("answered a line that is not JSON ({e}): {line:.200}"))
    }

    /// The next line the process writes (without its end of line), waited for until
    /// `deadline`.
    fn line(&mut self, deadline: Instant, timeout: Duration) -> Result<Vec<u8>, String> {
        let mut chunk = [0u8; 8192];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.pending.drain(..=end).collect();
                line.pop();
                return Ok(line);
            }
            if self.pending.len() > MAX_LINE {
                return Err(format!("answered a line over {MAX_LINE} bytes"));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable(left)? {
                return Err(format!("did not answer within {} ms", timeout.as_millis()));
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(self.ended()),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("its output could not be read: {e}")),
            }
        }
    }

    /// Whether the process's output has something to read (or has closed) within `wait`.
    fn readable(&self, wait: Duration) -> Result<bool, String> {
        let mut fd = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = wait.as_millis().clamp(1, i32::MAX as u128) as i32;
        loop {
            // SAFETY: one valid pollfd, owned by this frame, for the call's duration.
            let ready = unsafe { libc::poll(&mut fd, 1, ms) };
            if ready >= 0 {
                return Ok(ready > 0);
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(format!("waiting for its answer failed: {e}"));
            }
        }
    }

    /// What became of a process that stopped answering: its exit status and last stderr lines.
    fn ended(&mut self) -> String {
        self.gone = true;
        let status = self
            .exit_within(Duration::from_millis(500))
            .map_or("still running".to_string(), |s| s.to_string());
        // The stderr reader ends once the process's stderr closes: wait for its last lines.
        for _ in 0..50 {
            if self.stderr_reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let last: Vec<&str> = stderr.iter().map(String::as_str).collect();
        format!(
            "its process ended ({status}); its last stderr lines: {}",
            if last.is_empty() {
                "none".to_string()
            } else {
                last.join(" | ")
            }
        )
    }

    /// The exit status of the process if it ends within `wait`.
    fn exit_within(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let steps = (wait.as_millis() / 10).max(1);
        (0..steps).find_map(|_| {
            let s = self.child.try_wait().ok().flatten();
            if s.is_none() {
                std::thread::sleep(Duration::from_millis(10));
            }
            s
        })
    }
}

impl Drop for Process {
    /// Closes the process's input (a well-behaved agent ends there) and kills it if it has not
    /// ended within a moment.
    fn drop(&mut self) {
        drop(self.stdin.take());
        if self.exit_within(GRACE).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
